//! Who plays a game of a match, an SPSA run or the GUI's start check: the `--engine` words read
//! into an [`engine_spec::EngineSpec`], the [`player::Player`] trait the match runner asks for
//! moves, an external UGI engine as a player ([`ugi_client`], a child process of
//! [`crate::process`]) and the built-in players ([`builtin`]).

pub mod builtin;
pub mod engine_spec;
pub mod player;
pub mod ugi_client;
