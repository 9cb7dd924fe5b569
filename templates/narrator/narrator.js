// The narrator page: the deck's script lines (made by cardgen's script writer, each with the cards it
// needs in play) filtered for the table chosen here, then read out one step at a time, with the game
// (who sits where, who died, what the night chose) kept in the page's state across reloads.
// This file is the core: the table, the script, speech, clocks, navigation and the two screens.
// circle.js draws the seats and the choices made on them, day.js the deaths, the vote and the end;
// the game's rules are rules.js's (Rules). narrator.py joins the files, in its SCRIPTS order, into one
// script: their top-level names are shared. setup.js has the setup screen.
const D = JSON.parse(document.getElementById("deck").textContent);
const T = D.t;
const KEY = `cardgen-narrator/${D.game}/${D.lang}`;
const app = document.getElementById("app");

// ---- small helpers: every deck text goes in as a text node, never as markup
function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value == null) continue;
    if (key === "class") node.className = value;
    // Through the style object: the policy forbids style attributes.
    else if (key === "style") for (const [name, v] of Object.entries(value)) node.style.setProperty(name, v);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid != null && kid !== false) node.append(kid instanceof Node ? kid : String(kid));
  }
  return node;
}
// As cardgen's phrases.fill: only our own {names} are replaced.
const fill = (text, values) =>
  Object.entries(values).reduce((out, [key, value]) => out.split(`{${key}}`).join(String(value)), text);
const names = Object.fromEntries(D.cards.map((card) => [card.id, card.name]));
// As cardgen's markup: a backslash makes the \, * or : after it text. While the marks are found, each
// escaped character is held as a noncharacter that no mark's pattern matches.
const hold = (text) => text.replace(/\\([\\*:])/g, (all, char) => String.fromCharCode(0xfdd1 + "\\*:".indexOf(char)));
const release = (text) => text.replace(/[\ufdd1-\ufdd3]/g, (held) => "\\*:"[held.charCodeAt(0) - 0xfdd1]);
const icon = (text) => hold(text).replace(/(^|[^\w:]):([a-z0-9]+(?:-[a-z0-9]+)*):(?![\w:])/g,
  (all, before, id) => (id in names ? before + hold(names[id]) : all));
// The card markup: **bold** and *italic*; the rest is text.
function rich(text) {
  const out = [];
  for (const piece of icon(text).split(/(\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/)) {
    if (piece.startsWith("**") && piece.endsWith("**") && piece.length > 4) out.push(el("strong", {}, release(piece.slice(2, -2))));
    else if (piece.startsWith("*") && piece.endsWith("*") && piece.length > 2) out.push(el("em", {}, release(piece.slice(1, -1))));
    else if (piece) out.push(release(piece));
  }
  return out;
}
// What is read aloud: no asterisk, a mark's or a footnote's, is a word.
const plain = (text) => release(icon(text)).replace(/\*+/g, "");
function random(n) {
  const value = new Uint32Array(1);
  crypto.getRandomValues(value);
  return value[0] % n;
}
const clock = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

// ---- the game in progress, remembered across reloads
// S holds the table chosen on the setup screen and what lasts the whole game whatever Back does (names,
// cards, the word, the clocks, the private screens already shown); S.G is where the game stands, and
// S.history / S.future the G of the steps before and after it, so that Back and Next undo each other.
function freshGame() {
  return { phase: 0, step: 0, night: 0, alive: [], reminders: [], choices: [], picks: {}, batch: [], dawn: null,
    vote: null, guessed: null, winner: null, outcome: null, over: false };
}
function fresh() {
  const t = D.tonight;
  const setup = Math.max(0, D.setups.findIndex((s) => s.id === t.setup));
  const dayTimer = D.versions.flatMap((v) => v.phases).filter((p) => p.kind === "day")
    .flatMap((p) => p.lines).find((line) => line.timer);
  return {
    version: 0, setup, players: t.players, with: [...t.with], roles: t.roles, seatCount: D.players ? D.players[0] : 8,
    names: [], cards: [], running: false, started: false, auto: false,
    word: null, candidates: [], count: D.settings.candidates, level: "any", secretRole: null,
    dayTimer: dayTimer ? dayTimer.timer : D.settings["day-timer"],
    G: freshGame(), history: [], future: [], sealed: {}, clocks: {},
  };
}
function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY));
    if (!saved || saved.id !== D.id) return null;
    return { ...fresh(), ...saved.state, G: { ...freshGame(), ...saved.state.G } };
  } catch (error) {
    return null;
  }
}
let S = load() || fresh();
const G = () => S.G;
function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify({ id: D.id, state: S }));
  } catch (error) { /* private mode: the game is simply not remembered */ }
}

// ---- the table: what is dealt and so which cards are in play
// A game with no setups still plays the roles a build named (--roles): they are the whole table.
const setupOf = () => (S.players == null ? null : D.setups[S.setup]
  || (S.roles ? { name: "", players: [S.players], deals: [[]], fill: null, extra: 0 } : null));
const cardOf = Object.fromEntries(D.cards.map((card) => [card.id, card]));
// What the table deals, as tonight.py works it out for --with (the tests compare the two for every game):
// an added card takes the seat of one fill card, unless its kind is never dealt (a title); a card with
// extra cards (the Thief) brings that many more fill cards, left over in the middle.
function dealt() {
  const setup = setupOf();
  if (!setup) return null;
  // Cards named one by one (--roles) were dealt by the build itself.
  if (S.roles) return { row: new Map(S.roles.dealt), extra: S.roles.extra, left: new Map(), pools: {} };
  const index = setup.players.indexOf(S.players);
  const row = new Map(setup.deals[index]);
  // A row may count a team or a pool: the moderator ticks which of its cards, and the rest stay open.
  const left = new Map(setup.choose ? setup.choose[index] : []);
  const seated = new Set([...row.keys(), ...Object.values(setup.pools || {}).flat()].map((id) => cardOf[id].group));
  for (const id of S.with) {
    const pool = [...left.keys()].find((key) => left.get(key) > 0 && setup.pools[key].includes(id));
    if (pool) {
      left.set(pool, left.get(pool) - 1);
      row.set(id, (row.get(id) || 0) + 1);
      continue;
    }
    if (!seated.has(cardOf[id].group)) continue;
    row.set(setup.fill, row.get(setup.fill) - 1);
    row.set(id, (row.get(id) || 0) + 1);
  }
  let extra = setup.extra;
  for (const [id, n] of [...row]) {
    const more = (cardOf[id].extra || 0) * n;
    if (more && setup.fill) {
      extra += more;
      row.set(setup.fill, (row.get(setup.fill) || 0) + more);
    }
  }
  for (const [id, n] of row) if (!n) row.delete(id);
  for (const [key, n] of left) if (!n) left.delete(key);
  return { row, extra, left, pools: setup.pools || {} };
}
const open = (table) => new Set([...table.left.keys()].flatMap((key) => table.pools[key]));
const beside = () => new Map(S.roles ? S.roles.beside : []);
const inPlay = () => (dealt() ? new Set([...dealt().row.keys(), ...S.with, ...beside().keys(), ...(S.roles ? [] : open(dealt()))])
  : new Set(D.all));
// As model.met: "!id" (a step's unless) is met when that card is not in play.
const applies = (line, play) => (line.when || []).every((clause) => clause.some((id) =>
  (id[0] === "!" ? !play.has(id.slice(1)) : play.has(id))));
// As script.deal_line for a player count.
function dealLine() {
  if (!setupOf()) return D.dealTable;
  const { row, extra, left, pools } = dealt();
  const total = [...row.values()].reduce((sum, n) => sum + n, 0);
  const chosen = [...(left || new Map()).values()].reduce((sum, n) => sum + n, 0);
  // Chosen roles that do not fit the rule (the build warned) still deal at least one card each.
  const each = Math.max(1, Math.floor((total + chosen - extra) / S.players));
  const cards = [...row].map(([id, n]) => fill(T.deal_item, { n, name: names[id] })).join(T.list_separator);
  const choose = [...(left || new Map())].map(([key, n]) =>
    fill(T.deal_choose, { n, cards: pools[key].map((id) => names[id]).join(T.list_separator) }));
  return runOn([...(total ? [fill(T.deal_cards, { total, cards })] : []), ...choose, each === 1 ? T.deal_one : fill(T.deal_each, { n: each }),
    ...(extra ? [extra === 1 ? T.deal_extra_one : fill(T.deal_extra, { extra })] : [])]);
}
// As script_lines.run_on: sentences as one paragraph, Chinese run on after its full-width stops.
function runOn(sentences) {
  return sentences.reduce((line, sentence) => line + (!line || D.stops.includes(line.slice(-1)) ? "" : " ") + sentence, "");
}
// As script.check_text: the parts of the win check for the cards in play.
function checkParts(play) {
  return runOn(D.winCheck.filter((part) => applies(part, play)).map((part) => part.text));
}
// As table_rules.warnings: the game's rules the table breaks; a rule about a card still to be chosen is
// the moderator's to keep while a choice may yet mend it (at-least, exactly).
function broken(table) {
  const counts = new Map([...table.row, ...beside()]);
  const still = S.roles ? new Set() : open(table);
  return D.rules.filter((rule) => {
    if (rule.players.length && !rule.players.includes(S.players)) return false;
    const mendable = rule.kind === "at-least" || rule.kind === "exactly";
    if (mendable && [...rule.cards, ...rule.others].some((id) => still.has(id))) return false;
    const n = rule.numbers.length > 1 ? rule.numbers[rule.players.indexOf(S.players)] : rule.numbers[0] || 0;
    const have = rule.cards.reduce((sum, id) => sum + (counts.get(id) || 0), 0);
    return { "at-most": have > n, "at-least": have > 0 && have < n, exactly: have !== n,
      "from-players": have > 0 && S.players < n, "never-with": have > 0 && rule.others.some((id) => counts.get(id)) }[rule.kind];
  });
}
const checkLine = (play) => `**${T.win_check}**${T.colon}${checkParts(play)}`;
const label = () => (!setupOf() ? T.all_cards : S.roles ? fill(T.roles_for, { players: S.players })
  : fill(T.setup_for, { players: S.players, setup: setupOf().name }));
// The script for this table: the version's phases with the lines that apply.
function script() {
  const play = inPlay();
  return D.versions[S.version].phases.map((phase) => ({
    ...phase,
    lines: phase.lines.filter((line) => applies(line, play) && (line.tailored ?? !!setupOf()) === !!setupOf()
      && !(setupOf() && line.upTo && S.players > line.upTo))
      .map((line) => (line.kind === "deal" ? { ...line, kind: "do", text: dealLine() }
        : line.kind === "check" ? { ...line, text: checkLine(play) } : line)),
  }));
}
const seatCount = () => (setupOf() ? S.players : S.seatCount);
const seatName = (i) => (S.names[i] || "").trim() || fill(T.seat, { n: i + 1 });
const alive = (i, g = G()) => g.alive[i] !== false;
const teamOf = (id) => (cardOf[id] ? cardOf[id].team : null);

// ---- speech, in the file's language, with a local voice only (a network voice would send the text away)
const synth = window.speechSynthesis;
let voice = null;
let voicesKnown = false;
function pickVoice() {
  const want = T.speech.toLowerCase().replace("_", "-");
  const voices = synth ? synth.getVoices().filter((v) => v.localService !== false) : [];
  const lang = (v) => v.lang.toLowerCase().replace("_", "-");
  voice = voices.find((v) => lang(v) === want) || voices.find((v) => lang(v).split("-")[0] === want.split("-")[0]) || null;
  voicesKnown = voicesKnown || voices.length > 0;
  const notice = document.getElementById("voice");
  if (notice) notice.replaceWith(voiceNotice());
}
function voiceNotice() {
  if (voice) return el("p", { id: "voice", class: "voice" }, fill(T.voice, { voice: voice.name }));
  return el("p", { id: "voice", class: "notice", role: "status" }, fill(T.no_voice, { language: T.language }));
}
if (synth) {
  synth.addEventListener?.("voiceschanged", pickVoice);
  pickVoice();
}
let speaking = 0;
function speak(text, done) {
  const ticket = ++speaking;
  const finish = () => { if (ticket === speaking && done) done(); };
  if (synth) synth.cancel();
  if (!voice) {
    later(finish, plain(text).length * D.settings.reading);
    return;
  }
  const utterance = new SpeechSynthesisUtterance(plain(text));
  utterance.lang = T.speech;
  utterance.voice = voice;
  utterance.onend = finish;
  utterance.onerror = finish;
  synth.speak(utterance);
}

// ---- sound at the end of a timer, made in the page
let audio = null;
function unlockAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio && audio.state === "suspended") audio.resume();
}
function ring() {
  unlockAudio();
  if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
  if (!audio) return;
  const start = audio.currentTime + 0.05;
  for (let i = 0; i < 3; i++) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + i * 0.45;
    tone.frequency.value = i === 2 ? 660 : 880;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.4, at + 0.03);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.4);
  }
}

// ---- the screen stays on while a game runs
let lock = null;
async function keepAwake() {
  if (!S.running || !navigator.wakeLock || document.visibilityState !== "visible" || lock) return;
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => { lock = null; });
  } catch (error) { lock = null; }
}
document.addEventListener("visibilitychange", keepAwake);

// ---- what belongs to the step on screen (a reading's end, the page going on by itself): leaving it stops them
let live = [];
function later(fn, ms) {
  const id = setTimeout(fn, ms);
  live.push(() => clearTimeout(id));
}
function stopAll() {
  live.forEach((stop) => stop());
  live = [];
  speaking++;
  if (synth) synth.cancel();
}

// ---- clocks: their end lives in the state, so a clock runs on after its step is left and after a
// reload, and one ticker rings every clock that runs out, on screen or not
const onEnd = {};                 // what the step on screen does when its clock runs out, by clock key
function clockLeft(c) {
  return c.end ? c.end - Date.now() : c.left;
}
function startClock(key) {
  const c = S.clocks[key];
  c.end = Date.now() + (clockLeft(c) > 0 ? clockLeft(c) : c.seconds * 1000);
  c.left = null;
  c.rung = false;
  save();
  clearInterval(ticker);
  ticker = setInterval(tick, 250);
  drawClocks();
}
function drawClocks() {
  for (const box of document.querySelectorAll("[data-clock]")) {
    const c = S.clocks[box.dataset.clock];
    if (!c) continue;
    const ms = clockLeft(c);
    box.querySelector(".clock").textContent = ms <= 0 ? (c.sound ? T.time_up : clock(0)) : clock(ms);
    box.querySelector(".bar").style.width = `${Math.max(0, Math.min(100, (100 * ms) / (c.seconds * 1000)))}%`;
    box.classList.toggle("done", ms <= 0);
    box.querySelector(".start")?.toggleAttribute("hidden", Boolean(c.end) || ms <= 0);
    box.querySelector(".pause")?.toggleAttribute("hidden", !c.end);
  }
}
function tick() {
  for (const [key, c] of Object.entries(S.clocks)) {
    if (!c.end || c.end > Date.now()) continue;
    c.end = null;
    c.left = 0;
    c.rung = true;
    save();
    if (c.sound) ring();
    if (onEnd[key]) onEnd[key]();
    else if (!document.querySelector(`[data-clock="${key}"]`)) drawRunning();
  }
  drawClocks();
}
// The ticks keep time with the clock last started, so that its face turns on whole seconds.
let ticker = setInterval(tick, 250);
// A count-down under `key`; `start` says whether it starts by itself.
function countdown(key, seconds, { sound, caption, start, line }) {
  if (!S.clocks[key]) S.clocks[key] = { seconds, end: null, left: seconds * 1000, sound, caption: line || caption || "" };
  const c = S.clocks[key];
  const box = el("div", { class: sound ? "timer" : "wait", "data-clock": key },
    caption ? el("div", { class: "caption" }, caption) : null, el("div", { class: "clock", role: "timer" }),
    el("div", { class: "track" }, el("div", { class: "bar" })),
    sound ? el("div", { class: "row" },
      el("button", { class: "small start", onclick: () => { unlockAudio(); startClock(key); } }, T.timer_start),
      el("button", { class: "small pause", onclick: () => { c.left = clockLeft(c); c.end = null; save(); drawClocks(); } }, T.timer_pause),
      el("button", { class: "small", onclick: () => { c.end = null; c.left = seconds * 1000; startClock(key); } }, T.timer_restart)) : null);
  if (start && !c.end && !c.rung && c.left === seconds * 1000) startClock(key);
  return box;
}
// Clocks of other steps that still run, or rang since: shown on every step until dismissed.
function runningClocks(here) {
  const keys = Object.keys(S.clocks).filter((key) => !here.includes(key) && S.clocks[key].sound
    && (S.clocks[key].end || (S.clocks[key].rung && !S.clocks[key].seen)));
  return el("div", { id: "running" }, keys.map((key) => el("div", { class: "timer elsewhere", "data-clock": key },
    el("div", { class: "caption" }, rich(S.clocks[key].caption)), el("div", { class: "clock", role: "timer" }),
    el("div", { class: "track" }, el("div", { class: "bar" })),
    el("button", { class: "small", onclick: () => { S.clocks[key].seen = true; save(); drawRunning(); } }, T.close))));
}
function drawRunning() {
  const strip = document.getElementById("running");
  if (!strip) return;
  strip.replaceWith(runningClocks(JSON.parse(strip.dataset.here || "[]")));
  document.getElementById("running").dataset.here = strip.dataset.here || "[]";
  drawClocks();
}

// ---- the game as rules.js sees it (see Rules in rules.js for the shapes)
const game = {
  cards: Object.fromEntries(D.cards.map((c) => [c.id, { id: c.id, team: c.team, group: c.group, rules: c.rules || {} }])),
  rules: D.gameRules || {},
};
function ruleState(g = G()) {
  return {
    night: g.night,
    seats: Array.from({ length: seatCount() }, (_, i) => ({ card: S.cards[i] || null, alive: alive(i, g), reminders: g.reminders[i] || [] })),
    choices: g.choices,
  };
}

// ---- where the game stands: a step of a phase, the lines this game skips left out
const phases = () => script();
const nightKinds = ["first-night", "night"];
function skip(line, g) {
  // As script_lines.Since: a line of the first night only, or of the nights from fromNight on.
  if ((line.firstNight && g.night > 1) || (line.fromNight && g.night < line.fromNight)) return true;
  if (line.guessed !== undefined && g.guessed !== null && line.guessed !== g.guessed) return true;
  // A line about deaths is read only for the deaths just now (this dawn's, the vote's or a shot's).
  if (line.deaths !== undefined && line.deaths !== g.batch.length > 0) return true;
  if (line.died) {
    const held = Rules.triggers(ruleState(g), g.batch);
    if (!line.died.some((id) => held.has(id))) return true;
  }
  if (D.deadRoles === "skipped" && line.card) {
    const holders = [...Array(seatCount()).keys()].filter((seat) => S.cards[seat] === line.card);
    return holders.length > 0 && holders.every((seat) => !alive(seat, g));
  }
  return false;
}
// Which phase follows: the kinds say how the game goes round (night, dawn, day, night ...); without
// kinds, the phases follow each other as printed.
function nextPhase(list, i) {
  const kind = list[i].kind;
  const find = (...kinds) => {
    for (const k of kinds) {
      const j = list.findIndex((p) => p.kind === k && p.lines.length);
      if (j >= 0) return j;
    }
    return -1;
  };
  let j = -1;
  if (nightKinds.includes(kind)) j = find("dawn", "day");
  else if (kind === "dawn") j = find("day");
  else if (kind === "day") j = find("night");
  if (j < 0 && kind !== "end") j = i + 1;
  while (j >= 0 && j < list.length && !list[j].lines.length) j++;
  return j >= 0 && j < list.length ? j : -1;
}
// A new night starts here only: at a night phase's first step, reached going forward.
function enterPhase(g, list, j) {
  g.phase = j;
  g.step = 0;
  g.batch = [];
  if (nightKinds.includes(list[j].kind)) {
    g.night++;
    g.choices = [];
  }
  if (list[j].kind === "day") g.vote = null;
}
// Moves g onto the first line from its step on that this game reads; false when none is left.
function settle(g) {
  const list = phases();
  for (;;) {
    const phase = list[g.phase];
    if (!phase) return false;
    if (g.step >= phase.lines.length) {
      const j = nextPhase(list, g.phase);
      if (j < 0) return false;
      enterPhase(g, list, j);
      continue;
    }
    if (!skip(phase.lines[g.step], g)) return true;
    g.step++;
  }
}
const current = () => {
  const phase = phases()[G().phase];
  return phase && phase.lines[G().step] ? { phase, line: phase.lines[G().step] } : null;
};
const stepKey = (g = G()) => `${g.night}/${g.phase}/${g.step}`;
// The step after this one, or null at the game's last step.
function following() {
  const g = structuredClone(G());
  // Leaving the guess step with no guess tapped: time ran out, or the tokens did.
  if (current().line.word === "guess" && g.guessed === null) g.guessed = false;
  g.step++;
  return settle(g) ? g : null;
}
// An end whose lines name no winning teams (Mafia's sides, Salem's) ends on the line that fits: the page
// asks which at the phase's first step it reads, so that no other side's line is read aloud.
function outcomes(phase, g = G()) {
  if (phase.kind !== "end" || phase.lines.some((l) => l.winners)) return null;
  const lines = phase.lines.filter((l) => l.kind === "say" && !skip(l, g));
  return lines.length > 1 ? lines : null;
}
function endsHere(phase, line, g = G()) {
  return Boolean(line.winners) || (outcomes(phase, g) !== null && phase.lines.slice(0, g.step).every((l) => skip(l, g)))
    || !following();
}
// What must happen before Next: an ended game and a step that ends it stay; the dawn is announced first.
function blocked() {
  const { phase, line } = current();
  return G().over || (isAnnounceStep() && !(G().dawn && G().dawn.done)) || endsHere(phase, line);
}
// Back and Next undo each other: Back keeps the step it leaves, and Next goes back to it unless the game
// changed meanwhile (change() forgets it).
function go(direction) {
  if (direction > 0) {
    if (blocked()) return;
    const next = S.future.length ? S.future.pop() : following();
    S.history.push(S.G);
    S.G = next;
  } else {
    if (!S.history.length || G().over) return;
    S.future.push(S.G);
    S.G = S.history.pop();
  }
  save();
  show();
}
function change() {
  S.future = [];
  save();
  show(true);
}
// A second Next right after a step begins is a double tap, not a wish to skip the step.
let begun = 0;
function nextTap() {
  if (Date.now() - begun < D.settings["double-tap"]) return;
  go(1);
}

function theme(kind) {
  document.body.dataset.theme = !kind || nightKinds.includes(kind) ? "night" : "day";
}
// A line about the deaths just now names them where its placeholder ([name], …) stands.
function lineText(line) {
  const winner = D.teams.find((t) => t.id === G().winner);
  if (line.winners && winner) return line.text.replace(PLACEHOLDER, winner.name);
  const dead = G().batch.map((death) => seatName(death.seat)).join(T.list_separator);
  if (!dead || !(line.died || line.deaths === true)) return line.text;
  return line.text.replace(PLACEHOLDER, dead);
}
const PLACEHOLDER = /\[[^\]]+\]|…+/;
// Which timers start by themselves: the whole table's clock (the day's guessing, the game's end) when
// the page runs the game; a turn's hourglass waits for a tap.
const pageRuns = () => Boolean(D.versions[S.version].pageOnly);
const startsItself = (phase, line) => (S.auto || pageRuns()) && (line.word === "guess" || phase.kind === "end");

function show(update) {
  if (!update) {
    stopAll();
    begun = Date.now();
    for (const key of Object.keys(onEnd)) delete onEnd[key];
  }
  document.getElementById("private")?.remove();
  const now = current();
  if (!S.running || !now) { renderSetup(); return; }
  const { phase, line } = now;
  theme(phase.kind);
  const g = G();
  const night = nightKinds.includes(phase.kind);
  const ends = !g.over && endsHere(phase, line, g);
  const announceHere = isAnnounceStep();
  const voteHere = !line.choices && isVoteStep();
  const widgets = [];
  const here = [];
  let waitFor = null;             // in automatic mode, what must happen before the page goes on
  const resume = () => { if (S.auto) later(() => go(1), 400); };
  if (line.word || line.secretRole) {
    widgets.push(wordWidget(line, resume));
    if (secretPending(line)) waitFor = "private";
  }
  if (line.timer) {
    const key = `timer/${stepKey()}`;
    here.push(key);
    widgets.push(countdown(key, phase.kind === "day" ? S.dayTimer : line.timer,
      { sound: true, start: startsItself(phase, line), line: line.text }));
    onEnd[key] = () => {
      if (line.word === "guess" && G().guessed === null) G().guessed = false;
      save();
      drawClocks();
      if (S.auto) later(() => go(1), 1500);
    };
    if (!S.clocks[key].rung) waitFor = "timer";
  }
  // A day with no timer of its own gets one, kept from step to step.
  if (phase.kind === "day" && !phase.lines.some((l) => l.timer)) {
    here.push(`day/${g.night}`);
    widgets.push(countdown(`day/${g.night}`, S.dayTimer, { sound: true, caption: T.day_clock }));
  }
  if (announceHere) {
    widgets.push(dawnWidget(resume));
    if (!(g.dawn && g.dawn.done)) waitFor = "dawn";
  }
  if (voteHere) widgets.push(voteWidget());
  if (ends || g.over) {
    widgets.push(endWidget(phase, line));
    waitFor = "end";
  }
  const pause = line.pause ?? (line.part === "action" ? D.settings.pause.action : 0);
  if (pause && !line.timer) {
    const key = `pause/${stepKey()}`;
    here.push(key);
    widgets.push(countdown(key, pause, { caption: T.wait, start: true }));
    onEnd[key] = () => { drawClocks(); if (S.auto && !waitFor) go(1); };
  }
  const running = runningClocks(here);
  running.dataset.here = JSON.stringify(here);
  const house = line.house ? el("span", { class: "house", title: T.house }, "◆") : null;
  const screen = el("div", { class: `run ${line.kind}` },
    el("header", {}, el("div", { class: "phase" }, phase.title, night && g.night ? el("span", { class: "muted" }, ` · ${fill(T.night_n, { n: g.night })}`) : null),
      el("div", { class: "tools" }, el("button", { class: "tool", onclick: scriptPanel }, T.script_view),
        el("button", { class: "tool", onclick: () => { if (confirm(T.confirm_new)) newGame(); } }, T.new_game))),
    voiceNotice(),
    el("section", { class: "step", "data-kind": line.kind, "aria-live": "polite" },
      line.kind === "do" ? el("div", { class: "for" }, T.for_narrator) : null,
      el("p", { id: "step-text", class: "text" }, house, house ? " " : null, rich(lineText(line)))),
    running,
    circleView(line, night, announceHere, voteHere),
    el("div", { class: "widgets" }, widgets),
    el("nav", {},
      el("button", { class: "back", onclick: () => go(-1), disabled: !S.history.length || g.over }, T.back),
      el("label", { class: "auto" }, el("input", { type: "checkbox", checked: S.auto, onchange: (event) => { S.auto = event.target.checked; save(); show(); } }), T.auto),
      el("button", { class: "next primary", onclick: nextTap, disabled: blocked() }, T.next)));
  document.body.dataset.phase = phase.kind || "";
  app.replaceChildren(screen);
  drawClocks();
  openPrivate(line, resume);
  if (update || g.over) return;
  const goOn = () => { if (S.auto && !waitFor && !pause && !ends) later(() => go(1), D.settings.pause.line * 1000); };
  // A line that names the winner, or one side's ending among others, is read once the winner is tapped.
  const readLater = ends && (outcomes(phase, g) || (line.winners && PLACEHOLDER.test(line.text)));
  if (line.kind === "say" && !announceHere && !readLater) speak(lineText(line), goOn);
  else if (S.auto && !waitFor && !pause) later(goOn, plain(line.text).length * D.settings.reading);
}

// ---- panels over the game: the whole script
function dialog(id, ...content) {
  const box = el("div", { class: "dialog", role: "dialog", id }, el("div", { class: "panel" }, content));
  document.body.append(box);
  return () => box.remove();
}
function panel(title, ...content) {
  const close = dialog(null, el("div", { class: "row spread" }, el("h2", {}, title),
    el("button", { class: "small", onclick: () => close() }, T.close)), content);
  return close;
}
function scriptView() {
  return el("div", { id: "script", class: "script" }, phases().map((phase, p) => el("section", { "data-phase-kind": phase.kind || "" },
    el("h3", {}, phase.title),
    el("ol", {}, phase.lines.map((line, i) => el("li", {
      "data-kind": line.kind, "data-house": line.house ? "1" : "0", "data-timer": line.timer || "",
      class: S.running && p === G().phase && i === G().step ? "here" : "",
    }, el("span", { class: "line" }, rich(line.text))))))));
}
function scriptPanel() {
  panel(T.script_view, scriptView());
}
