//! What the search knows of the node it is in: where it is (ply), how far it looks (depth), the
//! window, and whether it is on the principal variation; and why a search unwinds.

/// The deepest ply a search reaches (main search and quiescence together).
pub const MAX_PLY: usize = 128;

/// The kind of node, by its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An open window: the node may be on the principal variation, so it is searched exactly
    /// and never pruned on a guess.
    Pv,
    /// A null window (`beta = alpha + 1`): only whether the score beats alpha matters.
    NonPv,
}

/// One node of the main search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Plies from the root.
    pub ply: usize,
    /// Plies left to search before quiescence.
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub kind: NodeKind,
}

impl Node {
    /// The root of a search to `depth` in the window `alpha..beta`.
    pub fn root(depth: i32, alpha: i32, beta: i32) -> Node {
        Node {
            ply: 0,
            depth,
            alpha,
            beta,
            kind: NodeKind::Pv,
        }
    }

    #[inline]
    pub fn is_pv(&self) -> bool {
        self.kind == NodeKind::Pv
    }

    /// The child reached by a move, searched `reduction` plies shallower than usual in the
    /// window `-beta..-alpha` (negamax: the child's window is the parent's, negated).
    #[inline]
    pub fn child(&self, reduction: i32, alpha: i32, beta: i32) -> Node {
        let pv = beta - alpha > 1;
        Node {
            ply: self.ply + 1,
            depth: self.depth - 1 - reduction,
            alpha: -beta,
            beta: -alpha,
            kind: if pv { NodeKind::Pv } else { NodeKind::NonPv },
        }
    }

    /// The child searched with a null window just above `alpha`.
    #[inline]
    pub fn scout_child(&self, reduction: i32, alpha: i32) -> Node {
        self.child(reduction, alpha, alpha + 1)
    }
}

/// Why a thread stops searching and returns up its tree; its scores from there on mean
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwind {
    /// The whole search is over: `stop`, the clock, the node limit, or (for a helper) the
    /// main thread finished.
    SearchOver,
    /// A node this thread searches a move of, shared with other threads, was cut off or its
    /// move finished by another thread: the thread returns to that node and goes on there.
    SplitDone,
}
