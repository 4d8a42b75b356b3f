// The page's puzzle mode: a puzzle of the server's sets is shown, the player moves by clicking,
// the server judges each move by proof (POST /api/puzzle/move) and answers with the engine's
// defence, or with the refutation of a wrong move; then the next puzzle, chosen by rating.
// The player's rating, streak and results live in localStorage ("lielow-puzzles"), so they
// survive a reload. Uses app.js's `$`, `api`, `status`, `fail`, `render`, `next` and
// `stopSearches`; app.js's game waits (no engine moves, no clock) while puzzles are shown.
"use strict";

const PUZZLE_START_RATING = 1500;
const PUZZLE_K = 32;          // the rating's step: Elo's K factor
const REPLY_DELAY_MS = 600;   // the engine's reply is shown this long after the player's move

const puzzles = {
  list: {},      // board size -> the server's puzzles of that size, easiest first
  current: null, // the puzzle shown
  moves: [],     // the moves played since its start
  view: null,    // the shown position, as the server describes it
  selected: null,
  busy: false,   // a move is being judged, or the engine's reply is on its way
  drawn: 0,      // the moves of the board on screen (it is drawn again after each)
  arrow: null,   // a move drawn as an arrow (a refutation)
  over: false,   // solved, or the solution shown: no more moves
  wrong: false,  // the latest move was wrong: the player may try again
};

// The player's record, kept in the browser.
let puzzleStats = JSON.parse(localStorage.getItem("lielow-puzzles") || "null") || {};
puzzleStats = {
  rating: PUZZLE_START_RATING, streak: 0, best: 0, results: {}, size: 8, current: null,
  ...puzzleStats,
};
function savePuzzleStats() { localStorage.setItem("lielow-puzzles", JSON.stringify(puzzleStats)); }

function puzzling() { return document.body.classList.contains("puzzling"); }

// Switches between the game and the puzzles; the choice is kept for the next visit.
async function setMode(puzzle) {
  document.body.classList.toggle("puzzling", puzzle);
  $("mode-play").setAttribute("aria-pressed", String(!puzzle));
  $("mode-puzzles").setAttribute("aria-pressed", String(puzzle));
  localStorage.setItem("lielow-mode", puzzle ? "puzzles" : "play");
  if (puzzle) {
    await stopSearches();
    syncClock();
    await showPuzzles();
  } else {
    status("");
    await render();
    next();
  }
}
$("mode-play").onclick = () => setMode(false);
$("mode-puzzles").onclick = () => setMode(true);

// The puzzles of the chosen size, asked of the server once.
async function puzzlesOfSize(size) {
  if (!puzzles.list[size]) puzzles.list[size] = (await api("/api/puzzles", { size })).puzzles;
  return puzzles.list[size];
}

async function showPuzzles() {
  $("puzzle-size").value = String(puzzleStats.size);
  renderStats();
  let list;
  try {
    list = await puzzlesOfSize(puzzleStats.size);
  } catch (error) { return feedback(`Cannot load the puzzles: ${error.message}`, "wrong"); }
  const kept = list.find((p) => p.id === puzzleStats.current);
  if (kept && puzzles.current && puzzles.current.id === kept.id) return drawPuzzle();
  if (kept) return startPuzzle(kept);
  nextPuzzle();
}

// The next puzzle: the untried one whose rating is nearest the player's (the easiest first
// among equals); once every puzzle of the size was tried, the nearest other one.
async function nextPuzzle() {
  const list = await puzzlesOfSize(puzzleStats.size).catch(() => []);
  if (list.length === 0) {
    puzzles.current = null;
    $("puzzle-board").innerHTML = "";
    $("puzzle-title").textContent = "No puzzles";
    $("puzzle-info").textContent = "";
    return feedback(`This server has no ${puzzleStats.size}x${puzzleStats.size} puzzles.`, "wrong");
  }
  const untried = list.filter((p) => !(p.id in puzzleStats.results));
  const pool = untried.length ? untried : list.filter((p) => !puzzles.current || p.id !== puzzles.current.id);
  const choices = pool.length ? pool : list;
  const distance = (p) => Math.abs(p.rating - puzzleStats.rating);
  const chosen = choices.reduce((best, p) => (distance(p) < distance(best) ? p : best));
  startPuzzle(chosen, untried.length === 0);
}

function startPuzzle(puzzle, allTried = false) {
  puzzles.current = puzzle;
  puzzles.moves = [];
  puzzles.arrow = null;
  puzzles.over = false;
  puzzles.wrong = false;
  puzzleStats.current = puzzle.id;
  savePuzzleStats();
  const done = puzzleStats.results[puzzle.id];
  const again = done ? ` You ${done === "solved" ? "solved" : "missed"} it before: this try does not change your rating.` : "";
  feedback((allTried ? "You have tried every puzzle of this size. " : "") + `Find the move that wins.${again}`, "");
  drawPuzzle();
}

// The side to move in the puzzle's position: the player.
function solver() { return puzzles.current.side; }
function defender() { return solver() === "Blue" ? "Red" : "Blue"; }

async function drawPuzzle() {
  const puzzle = puzzles.current;
  if (!puzzle) return;
  const n = puzzle.moves;
  $("puzzle-title").innerHTML = `<span class="dot ${solver()}"></span>${solver()} to move: win in ${n}`;
  $("puzzle-info").textContent = `Puzzle ${puzzle.id} · rating ${puzzle.rating}`;
  try {
    puzzles.view = await api("/api/position", {
      start: puzzle.lfen, moves: puzzles.moves, flip: solver() === "Red", arrows: puzzles.arrow ? [puzzles.arrow] : [],
    });
  } catch (error) { return feedback(`Cannot show the puzzle: ${error.message}`, "wrong"); }
  const board = $("puzzle-board");
  // The game's board has an arrowhead of the same id: this one gets its own, to colour it.
  board.innerHTML = puzzles.view.svg.replace(/arrowhead/g, "puzzle-arrowhead");
  board.classList.toggle("refuted", puzzles.wrong);
  board.firstElementChild.addEventListener("click", puzzleClicked);
  puzzles.drawn = puzzles.moves.length;
  puzzles.selected = null;
  $("puzzle-bear-off").hidden = true;
  renderPuzzleMoves();
  renderStats();
  $("puzzle-retry").hidden = !puzzles.wrong;
  $("puzzle-solution").hidden = puzzles.over;
  $("puzzle-next").classList.toggle("primary", puzzles.over);
  status(puzzles.over ? "Puzzle over." : puzzles.wrong ? "Wrong move." : myTurn() ? `${solver()} to move: your move.` : "");
}

function myTurn() {
  return !puzzles.busy && !puzzles.over && !puzzles.wrong && puzzles.view && puzzles.view.side === solver() && !puzzles.view.winner;
}

function puzzleHighlight() {
  const svg = $("puzzle-board").firstElementChild;
  svg.querySelectorAll(".target, .selected").forEach((e) => e.remove());
  $("puzzle-bear-off").hidden = true;
  const from = puzzles.selected;
  if (!from) return;
  mark(from, "selected", 0.44, "puzzle-board");
  for (const move of puzzles.view.legal.filter((m) => m.startsWith(from))) {
    if (move.endsWith("-off")) $("puzzle-bear-off").hidden = false;
    else mark(move.slice(3), "target", 0.16, "puzzle-board");
  }
}

function puzzleClicked(event) {
  if (!myTurn()) return;
  const element = event.target.closest("[data-square]");
  if (!element) return;
  const square = element.getAttribute("data-square");
  const from = puzzles.selected;
  if (from) {
    const move = puzzles.view.legal.find((m) => m.startsWith(from) && m.slice(3) === square);
    if (move) return puzzleMove(move);
  }
  puzzles.selected = puzzles.view.legal.some((m) => m.startsWith(square)) ? square : null;
  puzzleHighlight();
}
$("puzzle-bear-off").onclick = () => {
  const move = puzzles.selected && `${puzzles.selected}-off`;
  if (move && puzzles.view.legal.includes(move)) puzzleMove(move);
};

// The player's move: shown at once, judged by the server, then the engine's answer.
async function puzzleMove(move) {
  const puzzle = puzzles.current;
  puzzles.moves.push(move);
  puzzles.busy = true;
  feedback("Checking...", "");
  await drawPuzzle();
  let judged;
  try {
    judged = await api("/api/puzzle/move", { id: puzzle.id, moves: puzzles.moves });
  } catch (error) {
    puzzles.moves.pop();
    puzzles.busy = false;
    await drawPuzzle();
    return feedback(`The move could not be judged: ${error.message}`, "wrong");
  }
  if (puzzles.current !== puzzle) return; // another puzzle was chosen meanwhile
  if (judged.verdict === "solved") {
    if (judged.reply) puzzles.moves.push(judged.reply); // the defender's forced, losing move
    puzzles.busy = false;
    puzzles.over = true;
    const change = scorePuzzle(puzzle, 1);
    feedback(`${judged.text} ${change}`, "right");
  } else if (judged.verdict === "right") {
    feedback(`Right! ${defender()} defends with ${judged.reply}; now win in ${judged.left}.`, "right");
    await drawPuzzle();
    await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY_MS));
    if (puzzles.current !== puzzle) return;
    puzzles.moves.push(judged.reply);
    puzzles.busy = false;
  } else {
    puzzles.busy = false;
    puzzles.wrong = true;
    puzzles.arrow = judged.reply;
    const change = scorePuzzle(puzzle, 0);
    const rest = judged.continuation.length ? ` (then ${judged.continuation.join(" ")})` : "";
    feedback(`${judged.text.replace(/\.$/, "")}${rest}. ${change}`, "wrong");
  }
  await drawPuzzle();
}

// The first result of a puzzle moves the rating (Elo: the puzzle's rating is its opponent's)
// and the streak of puzzles solved without a mistake; a puzzle tried again moves neither.
// Returns what changed, in words.
function scorePuzzle(puzzle, score) {
  if (puzzle.id in puzzleStats.results) return "(Tried before: your rating stays.)";
  const expected = 1 / (1 + 10 ** ((puzzle.rating - puzzleStats.rating) / 400));
  const change = Math.round(PUZZLE_K * (score - expected));
  puzzleStats.rating += change;
  puzzleStats.streak = score ? puzzleStats.streak + 1 : 0;
  puzzleStats.best = Math.max(puzzleStats.best, puzzleStats.streak);
  puzzleStats.results[puzzle.id] = score ? "solved" : "missed";
  savePuzzleStats();
  renderStats();
  return `Rating ${change >= 0 ? "+" : "\u2212"}${Math.abs(change)}: now ${puzzleStats.rating}.`;
}

function renderStats() {
  const list = puzzles.list[puzzleStats.size] || [];
  const solved = list.filter((p) => puzzleStats.results[p.id] === "solved").length;
  $("puzzle-rating").textContent = puzzleStats.rating;
  $("puzzle-streak").textContent = puzzleStats.streak;
  $("puzzle-solved").textContent = list.length ? `${solved} of ${list.length}` : "-";
}

function feedback(text, kind) {
  const box = $("puzzle-feedback");
  box.textContent = text;
  box.className = kind;
}

// The moves so far, a move number with the player's move and the engine's reply, unbroken.
function renderPuzzleMoves() {
  const pairs = [];
  puzzles.moves.forEach((move, i) => {
    const mine = i % 2 === 0;
    const wrong = puzzles.wrong && i === puzzles.moves.length - 1;
    const cell = `<span class="${mine ? "mine" : "reply"}${wrong ? " wrong" : ""}">${move}</span>`;
    if (mine) pairs.push(`<span class="number">${i / 2 + 1}.</span> ${cell}`);
    else pairs[pairs.length - 1] += ` ${cell}`;
  });
  $("puzzle-moves").innerHTML = pairs.map((pair) => `<span class="pair">${pair}</span>`).join(" ");
}

// Back to the puzzle's start, after a wrong move.
$("puzzle-retry").onclick = () => {
  puzzles.moves = [];
  puzzles.arrow = null;
  puzzles.wrong = false;
  feedback("Find the move that wins.", "");
  drawPuzzle();
};

// The solution, played out from the start; a puzzle given up counts as missed.
$("puzzle-solution").onclick = async () => {
  const puzzle = puzzles.current;
  if (!puzzle || puzzles.busy) return;
  let solution;
  try {
    solution = await api("/api/puzzle/solution", { id: puzzle.id });
  } catch (error) { return feedback(`No solution: ${error.message}`, "wrong"); }
  const change = scorePuzzle(puzzle, 0);
  puzzles.busy = true;
  puzzles.over = true;
  puzzles.wrong = false;
  puzzles.arrow = null;
  puzzles.moves = [];
  feedback(`The solution: ${solution.line.join(" ")}. ${change}`, "");
  for (const move of solution.line) {
    await drawPuzzle();
    await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY_MS));
    if (puzzles.current !== puzzle) return;
    puzzles.moves.push(move);
  }
  puzzles.busy = false;
  drawPuzzle();
};

$("puzzle-next").onclick = () => { puzzles.busy = false; nextPuzzle(); };
$("puzzle-size").onchange = () => {
  puzzleStats.size = +$("puzzle-size").value;
  puzzles.current = null;
  savePuzzleStats();
  nextPuzzle();
};

if (localStorage.getItem("lielow-mode") === "puzzles") setMode(true);
