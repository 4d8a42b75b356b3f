use lielow::*;
use std::sync::atomic::AtomicBool;
fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    for text in bench::POSITIONS {
        let p = Position::from_lfen(text).unwrap();
        let mut s = search::Searcher::new();
        let stop = AtomicBool::new(false);
        let limits = limits::Limits { depth: Some(depth), ..Default::default() };
        let r = s.search(&p, &limits, &stop, &mut |i| print!("{}:{}:{} ", i.depth, i.nodes, i.score));
        println!("\n{} {:?} {}", r.nodes, r.best_move, text);
    }
}
