//! Which evaluation a search uses, as the `EvalFile` option and `--eval` flags name it.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use super::file::NetError;
use super::network::Network;

/// The network built into the program, a network file, or no network (the hand-set terms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// `embedded`: the shipped network (the default).
    Embedded,
    /// `hand-set`: the hand-set evaluation of `eval.rs`.
    HandSet,
    /// Any other text: a network file's path.
    File(PathBuf),
}

impl FromStr for EvalChoice {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<EvalChoice, Self::Err> {
        Ok(match text {
            "embedded" | "<embedded>" => EvalChoice::Embedded,
            "hand-set" | "<hand-set>" => EvalChoice::HandSet,
            path => EvalChoice::File(PathBuf::from(path)),
        })
    }
}

impl std::fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalChoice::Embedded => f.write_str("embedded"),
            EvalChoice::HandSet => f.write_str("hand-set"),
            EvalChoice::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl EvalChoice {
    /// The network chosen (`None`: the hand-set evaluation), read from its file if need be.
    pub fn load(&self) -> Result<Option<Arc<Network>>, NetError> {
        match self {
            EvalChoice::Embedded => Ok(Some(Network::embedded())),
            EvalChoice::HandSet => Ok(None),
            EvalChoice::File(path) => Network::load(path).map(|net| Some(Arc::new(net))),
        }
    }
}
