// The narrator page: the deck's script lines (made by cardgen's script writer, each with the cards it
// needs in play) filtered for the table chosen here, then read out one step at a time.
"use strict";
(() => {
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
  function fresh() {
    const t = D.tonight;
    const setup = Math.max(0, D.setups.findIndex((s) => s.id === t.setup));
    const dayTimer = D.versions.flatMap((v) => v.phases).filter((p) => p.kind === "day")
      .flatMap((p) => p.lines).find((line) => line.timer);
    return {
      version: 0, setup, players: t.players, with: [...t.with], roles: t.roles, seatCount: D.players ? D.players[0] : 8,
      names: [], running: false, phase: 0, step: 0, auto: false, night: 0,
      word: null, candidates: [], count: D.settings.candidates, level: "any", shown: false, guessed: null,
      dayTimer: dayTimer ? dayTimer.timer : D.settings["day-timer"],
      choices: {}, out: [], cards: {}, dawn: {}, clocks: {}, winner: null,
    };
  }
  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(KEY));
      return saved && saved.id === D.id ? { ...fresh(), ...saved.state } : null;
    } catch (error) {
      return null;
    }
  }
  let S = load() || fresh();
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
    return [...(total ? [fill(T.deal_cards, { total, cards })] : []), ...choose, each === 1 ? T.deal_one : fill(T.deal_each, { n: each }),
      ...(extra ? [extra === 1 ? T.deal_extra_one : fill(T.deal_extra, { extra })] : [])].join(" ");
  }
  // As script.check_text: the parts of the win check for the cards in play, Chinese run on after its stops.
  function checkParts(play) {
    let line = "";
    for (const part of D.winCheck) {
      if (applies(part, play)) line += (!line || D.stops.includes(line.slice(-1)) ? "" : " ") + part.text;
    }
    return line;
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
      lines: phase.lines.filter((line) => applies(line, play) && (line.tailored ?? !!setupOf()) === !!setupOf())
        .map((line) => (line.kind === "deal" ? { ...line, kind: "do", text: dealLine() }
          : line.kind === "check" ? { ...line, text: checkLine(play) } : line)),
    }));
  }
  const seatCount = () => (setupOf() ? S.players : S.seatCount);
  const seatName = (i) => (S.names[i] || "").trim() || fill(T.seat, { n: i + 1 });
  const alive = (i) => !S.out.includes(i);

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

  // ---- timers belong to the step on screen: leaving it stops them
  // (A step drawn again, after a tap, keeps its pending moves but gets new clocks.)
  let live = [];
  let clocks = [];
  function later(fn, ms) {
    const id = setTimeout(fn, ms);
    live.push(() => clearTimeout(id));
  }
  function every(fn, ms) {
    const id = setInterval(fn, ms);
    clocks.push(() => clearInterval(id));
  }
  function stopClocks() {
    clocks.forEach((stop) => stop());
    clocks = [];
  }
  function stopAll() {
    stopClocks();
    live.forEach((stop) => stop());
    live = [];
    speaking++;
    if (synth) synth.cancel();
  }

  // A count-down that survives a reload: its end is kept in the game's state under `key`.
  function countdown(key, seconds, { sound, onEnd, label: caption, manual }) {
    const face = el("div", { class: "clock", role: "timer" });
    const bar = el("div", { class: "bar" });
    const box = el("div", { class: sound ? "timer" : "pause" }, caption ? el("div", { class: "caption" }, caption) : null,
      face, el("div", { class: "track" }, bar));
    let c = S.clocks[key];
    const left = () => (c ? (c.end ? c.end - Date.now() : c.left) : seconds * 1000);
    const buttons = el("div", { class: "row" });
    let ended = false;
    function draw() {
      const ms = left();
      face.textContent = ms <= 0 ? (sound ? T.time_up : clock(0)) : clock(ms);
      bar.style.width = `${Math.max(0, Math.min(100, (100 * ms) / (seconds * 1000)))}%`;
      box.classList.toggle("done", ms <= 0);
      if (ms <= 0 && c && c.end && !ended) {
        ended = true;
        c.end = null;
        c.left = 0;
        save();
        if (sound) ring();
        if (onEnd) onEnd();
      }
    }
    function run() {
      c = S.clocks[key] = { end: Date.now() + Math.max(0, left() > 0 ? left() : seconds * 1000), left: null };
      ended = false;
      save();
      drawButtons();
      draw();
    }
    function drawButtons() {
      buttons.replaceChildren();
      if (!sound) return;
      const running = c && c.end;
      if (!running && left() > 0) buttons.append(el("button", { class: "small", onclick: run }, T.timer_start));
      if (running) {
        buttons.append(el("button", { class: "small", onclick: () => {
          c.left = left(); c.end = null; save(); drawButtons(); draw();
        } }, T.timer_pause));
      }
      buttons.append(el("button", { class: "small", onclick: () => {
        c = S.clocks[key] = { end: null, left: seconds * 1000 }; run();
      } }, T.timer_restart));
    }
    box.append(buttons);
    every(draw, 250);
    if (!c && !manual) run();
    else { drawButtons(); draw(); }
    return box;
  }

  // ---- the running game
  const phases = () => script();
  const nightKinds = ["first-night", "night"];
  function skip(line) {
    // As script_lines.Since: a line of the first night only, or of the nights from fromNight on.
    if ((line.firstNight && S.night > 1) || (line.fromNight && S.night < line.fromNight)) return true;
    if (line.guessed !== undefined && S.guessed !== null && line.guessed !== S.guessed) return true;
    if (D.deadRoles === "skipped" && line.card) {
      const holders = Object.keys(S.cards).filter((seat) => S.cards[seat] === line.card).map(Number);
      return holders.length > 0 && holders.every((seat) => !alive(seat));
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
  function enter(j) {
    const list = phases();
    S.phase = j;
    S.step = 0;
    if (nightKinds.includes(list[j].kind)) {
      S.night++;
      S.choices = {};
    }
    settle(1);
  }
  // Moves off lines this game skips, in the direction given.
  function settle(direction) {
    const list = phases();
    for (;;) {
      const phase = list[S.phase];
      if (!phase) return;
      if (S.step >= phase.lines.length) {
        const j = direction > 0 ? nextPhase(list, S.phase) : -1;
        if (j < 0) { S.step = phase.lines.length - 1; return; }
        S.phase = j; S.step = 0;
        if (nightKinds.includes(list[j].kind)) { S.night++; S.choices = {}; }
        continue;
      }
      if (S.step < 0) {
        if (S.phase === 0) { S.step = 0; return; }
        S.phase--; S.step = list[S.phase].lines.length - 1;
        continue;
      }
      if (!skip(phase.lines[S.step])) return;
      S.step += direction;
    }
  }
  function go(direction) {
    const list = phases();
    const last = S.step >= list[S.phase].lines.length - 1 && nextPhase(list, S.phase) < 0;
    if (direction > 0 && last) return;
    S.step += direction;
    settle(direction);
    save();
    show();
  }
  const current = () => {
    const phase = phases()[S.phase];
    return phase ? { phase, line: phase.lines[S.step] } : null;
  };
  const stepKey = () => `${S.night}/${S.phase}/${S.step}`;

  function theme(kind) {
    document.body.dataset.theme = !kind || nightKinds.includes(kind) ? "night" : "day";
  }

  function initials(word) {
    return word.split(/\s+/).filter(Boolean).map((w) => Array.from(w)[0].toUpperCase()).join(" ");
  }
  function draw() {
    const pool = S.level === "any" ? Object.values(D.words).flat() : D.words[S.level] || [];
    const words = [...new Set(pool)];
    S.candidates = [];
    while (S.candidates.length < Math.min(S.count, words.length)) {
      const word = words[random(words.length)];
      if (!S.candidates.includes(word)) S.candidates.push(word);
    }
  }
  function wordWidget(line, resume) {
    const mode = line.word;
    if (mode === "choose") {
      if (S.word) return el("div", { class: "word" }, el("div", { class: "caption" }, T.the_word), el("div", { class: "secret" }, S.word));
      if (!S.candidates.length) draw();
      return el("div", { class: "word" }, el("div", { class: "caption" }, T.choose_word),
        el("div", { class: "candidates" }, S.candidates.map((word) => el("button", {
          class: "candidate", onclick: () => { S.word = word; save(); show(true); resume(); },
        }, word))),
        el("button", { class: "small", onclick: () => { draw(); save(); show(true); } }, T.other_words));
    }
    if (mode === "guess") {
      return el("div", { class: "row" },
        el("button", { class: "good", onclick: () => { S.guessed = true; save(); go(1); } }, T.guessed),
        el("button", { onclick: () => { S.guessed = false; save(); go(1); } }, T.not_guessed));
    }
    if (!S.word) return el("p", { class: "notice" }, T.no_word);
    if (mode === "initials") return el("div", { class: "word" }, el("div", { class: "caption" }, T.initials), el("div", { class: "secret" }, initials(S.word)));
    if (mode === "ask" && !S.shown) {
      return el("button", { class: "small", onclick: () => { S.shown = true; save(); show(true); } }, T.show_word);
    }
    return el("div", { class: "word" }, el("div", { class: "caption" }, T.the_word), el("div", { class: "secret" }, S.word));
  }
  function seatButtons(selected, pick, withNobody) {
    const seats = [];
    for (let i = 0; i < seatCount(); i++) {
      if (!alive(i)) continue;
      seats.push(el("button", { class: `seat${selected === i ? " on" : ""}`, onclick: () => pick(i) }, seatName(i)));
    }
    if (withNobody) seats.push(el("button", { class: `seat${selected === null ? " on" : ""}`, onclick: () => pick(null) }, T.nobody));
    return el("div", { class: "seats" }, seats);
  }
  function choicesWidget(line, night) {
    return el("div", { class: "choices" }, line.choices.map((effect, i) => {
      const key = `${S.phase}/${S.step}/${i}`;
      const chosen = key in S.choices ? S.choices[key].seat : undefined;
      return el("div", { class: "choice" }, el("div", { class: "caption" }, T[`choice_${effect}`]),
        seatButtons(chosen, (seat) => {
          S.choices[key] = { effect, seat };
          if (effect === "kill" && !night && seat !== null) kill([seat]);
          save();
          show(true);
        }, true));
    }));
  }
  // Who the night's choices kill: the targeted unless protected or saved, and the poisoned and killed.
  function deaths() {
    const by = (effect) => Object.values(S.choices).filter((c) => c.effect === effect && c.seat !== null).map((c) => c.seat);
    const safe = new Set([...by("protect"), ...by("save")]);
    const dead = new Set([...by("target").filter((seat) => !safe.has(seat)), ...by("poison"), ...by("kill")]);
    return [...dead].filter(alive).sort((a, b) => a - b);
  }
  function dawnWidget(resume) {
    const key = `dawn${S.night}`;
    if (!(key in S.dawn)) S.dawn[key] = { seats: deaths(), done: false };
    const dawn = S.dawn[key];
    if (dawn.done) return el("p", { class: "announced" }, announcement(dawn.seats));
    const list = [];
    for (let i = 0; i < seatCount(); i++) {
      if (!alive(i)) continue;
      list.push(el("label", { class: "check" }, el("input", { type: "checkbox", checked: dawn.seats.includes(i), onchange: (event) => {
        dawn.seats = event.target.checked ? [...dawn.seats, i].sort((a, b) => a - b) : dawn.seats.filter((s) => s !== i);
        save();
      } }), seatName(i)));
    }
    return el("div", { class: "dawn" }, el("div", { class: "caption" }, T.dawn_title), el("div", { class: "checks" }, list),
      el("button", { class: "primary", onclick: () => {
        dawn.done = true;
        save();
        speak(announcement(dawn.seats), resume);
        kill(dawn.seats);
      } }, T.announce));
  }
  const announcement = (seats) => (seats.length
    ? fill(T.dawn_deaths, { names: seats.map(seatName).join(T.list_separator) }) : T.dawn_none);
  function kill(seats) {
    const fresh = seats.filter(alive);
    if (!fresh.length) return;
    S.out.push(...fresh);
    save();
    winCheck();
  }
  function teamCounts() {
    const counts = new Map();
    for (let i = 0; i < seatCount(); i++) {
      const card = D.cards.find((c) => c.id === S.cards[i]);
      if (!alive(i) || !card || !card.team) continue;
      counts.set(card.team, (counts.get(card.team) || 0) + 1);
    }
    return D.teams.filter((team) => counts.has(team.id)).map((team) => fill(T.team_alive, { team: team.name, n: counts.get(team.id) }));
  }
  function dialog(...content) {
    const box = el("div", { class: "dialog", role: "dialog" }, el("div", { class: "panel" }, content));
    document.body.append(box);
    return () => box.remove();
  }
  function winCheck() {
    const close = dialog(el("h2", {}, T.win_check), D.winCheck.length ? el("p", {}, rich(checkParts(inPlay()))) : null,
      el("ul", { class: "counts" }, teamCounts().map((line) => el("li", {}, line))),
      el("div", { class: "row" }, el("button", { onclick: () => close() }, T.play_on),
        el("button", { class: "primary", onclick: () => { close(); gameOver(); } }, T.game_over)));
  }
  function gameOver() {
    const list = phases();
    const end = list.findIndex((p) => p.kind === "end" && p.lines.length);
    stopAll();
    enter(end >= 0 ? end : list.length - 1);
    save();
    show();
  }
  function winnerWidget() {
    const teams = D.teams.filter((team) => D.cards.some((card) => card.team === team.id && inPlay().has(card.id)));
    if (S.winner) return el("p", { class: "announced" }, fill(T.winner, { team: S.winner }));
    return el("div", { id: "winner" }, el("div", { class: "caption" }, T.who_won), el("div", { class: "seats" }, teams.map((team) =>
      el("button", { class: "seat", onclick: () => { S.winner = team.name; save(); show(true); speak(fill(T.winner, { team: team.name })); } }, team.name))));
  }

  function show(update) {
    if (update) stopClocks();
    else stopAll();
    const now = current();
    if (!now || !now.line) { renderSetup(); return; }
    const { phase, line } = now;
    theme(phase.kind);
    const list = phases();
    const night = nightKinds.includes(phase.kind);
    const lastOfGame = S.step === phase.lines.length - 1 && nextPhase(list, S.phase) < 0;
    const announceHere = line.announce === "deaths" || (phase.kind === "dawn" && S.step === 0
      && !D.versions[S.version].phases.some((p) => p.lines.some((l) => l.announce)));
    const widgets = [];
    let waitFor = null;           // in automatic mode, what must happen before the page goes on
    const resume = () => { if (S.auto) later(() => go(1), 400); };
    if (line.word) {
      widgets.push(wordWidget(line, resume));
      if (line.word === "choose" && !S.word) waitFor = "word";
    }
    if (line.timer) {
      const seconds = phase.kind === "day" ? S.dayTimer : line.timer;
      widgets.push(countdown(`timer/${stepKey()}`, seconds, {
        sound: true,
        onEnd: () => {
          if (line.word === "guess" && S.guessed === null) S.guessed = false;
          save();
          if (S.auto) later(() => go(1), 1500);
        },
      }));
      waitFor = "timer";
    }
    if (line.choices) widgets.push(choicesWidget(line, night));
    // A day with no timer of its own gets one, kept from step to step.
    if (phase.kind === "day" && !phase.lines.some((l) => l.timer)) {
      widgets.push(countdown(`day/${S.night}`, S.dayTimer, { sound: true, manual: true, label: T.day_clock }));
    }
    if (announceHere) {
      widgets.push(dawnWidget(resume));
      if (!(S.dawn[`dawn${S.night}`] || {}).done) waitFor = "dawn";
    }
    if (lastOfGame && (phase.kind === "end" || !phase.kind)) {
      widgets.push(winnerWidget());
      waitFor = "end";
    }
    const pause = line.pause ?? (line.part === "action" ? D.settings.pause.action : 0);
    if (pause && !line.timer) {
      widgets.push(countdown(`pause/${stepKey()}`, pause, { label: T.wait, onEnd: () => { if (S.auto && !waitFor) go(1); } }));
    }
    const house = line.house ? el("span", { class: "house", title: T.house }, "◆") : null;
    const screen = el("div", { class: `run ${line.kind}` },
      el("header", {}, el("div", { class: "phase" }, phase.title, night && S.night ? el("span", { class: "muted" }, ` · ${fill(T.night_n, { n: S.night })}`) : null),
        el("div", { class: "tools" },
          el("button", { class: "tool", onclick: tablePanel }, T.table),
          el("button", { class: "tool", onclick: scriptPanel }, T.script_view),
        )),
      voiceNotice(),
      el("section", { class: "step", "data-kind": line.kind, "aria-live": "polite" },
        line.kind === "do" ? el("div", { class: "for" }, T.for_narrator) : null,
        el("p", { id: "step-text", class: "text" }, house, house ? " " : null, rich(line.text))),
      el("div", { class: "widgets" }, widgets),
      el("nav", {},
        el("button", { class: "back", onclick: () => go(-1), disabled: S.phase === 0 && S.step === 0 }, T.back),
        el("label", { class: "auto" }, el("input", { type: "checkbox", checked: S.auto, onchange: (event) => { S.auto = event.target.checked; save(); show(); } }), T.auto),
        el("button", { class: "next primary", onclick: () => go(1), disabled: lastOfGame }, T.next)));
    document.body.dataset.phase = phase.kind || "";
    app.replaceChildren(screen);
    if (update) return;
    const kind = line.kind;
    const goOn = () => { if (S.auto && !waitFor && !pause && !lastOfGame) later(() => go(1), D.settings.pause.line * 1000); };
    if (kind === "say" && !announceHere) speak(line.text, goOn);
    else if (S.auto && !waitFor && !pause) later(goOn, plain(line.text).length * D.settings.reading);
  }

  // ---- panels over the game: the table, the whole script, a day timer
  function panel(title, ...content) {
    const close = dialog(el("div", { class: "row spread" }, el("h2", {}, title),
      el("button", { class: "small", onclick: () => { close(); show(true); } }, T.close)), content);
    return close;
  }
  function tablePanel() {
    const play = [...inPlay()];
    const rows = [];
    for (let i = 0; i < seatCount(); i++) {
      rows.push(el("li", { class: alive(i) ? "" : "is-out" },
        el("input", { class: "name", value: S.names[i] || "", placeholder: fill(T.seat, { n: i + 1 }), oninput: (event) => { S.names[i] = event.target.value; save(); } }),
        el("select", { onchange: (event) => { S.cards[i] = event.target.value; save(); } },
          el("option", { value: "" }, T.card_unknown),
          D.cards.filter((card) => play.includes(card.id)).map((card) => el("option", { value: card.id, selected: S.cards[i] === card.id }, card.name))),
        el("button", { class: "small", onclick: () => {
          if (alive(i)) kill([i]); else S.out = S.out.filter((seat) => seat !== i);
          save(); close(); tablePanel();
        } }, alive(i) ? T.alive : T.out)));
    }
    const close = panel(T.table, el("ol", { class: "table" }, rows), el("ul", { class: "counts" }, teamCounts().map((line) => el("li", {}, line))),
      el("div", { class: "row" }, el("button", { onclick: () => { close(); gameOver(); } }, T.game_over),
        el("button", { onclick: () => { if (confirm(T.confirm_new)) { close(); newGame(); } } }, T.new_game)));
  }
  function scriptView() {
    return el("div", { id: "script", class: "script" }, phases().map((phase, p) => el("section", { "data-phase-kind": phase.kind || "" },
      el("h3", {}, phase.title),
      el("ol", {}, phase.lines.map((line, i) => el("li", {
        "data-kind": line.kind, "data-house": line.house ? "1" : "0", "data-timer": line.timer || "",
        class: S.running && p === S.phase && i === S.step ? "here" : "",
      }, el("span", { class: "line" }, rich(line.text))))))));
  }
  function scriptPanel() {
    panel(T.script_view, scriptView());
  }

  // ---- the setup screen
  function newGame() {
    const keep = { version: S.version, setup: S.setup, players: S.players, with: S.with, roles: S.roles, names: S.names,
      seatCount: S.seatCount, count: S.count, level: S.level, dayTimer: S.dayTimer, auto: S.auto };
    stopAll();
    S = { ...fresh(), ...keep };
    save();
    renderSetup();
  }
  function field(caption, control) {
    return el("label", { class: "field" }, el("span", { class: "caption" }, caption), control);
  }
  function renderSetup() {
    theme("setup");
    document.body.dataset.phase = "setup";
    const setup = setupOf();
    const row = dealt() && dealt().row;
    const redraw = () => { save(); renderSetup(); };
    const usesWord = D.versions.some((v) => v.phases.some((p) => p.lines.some((l) => l.word)));
    const cards = D.cards.map((card) => {
      const count = row ? row.get(card.id) || beside().get(card.id) || 0 : card.count;
      const added = S.with.includes(card.id);
      const fromSetup = row && count > 0 && !added;
      const free = (setup && setup.fill && (row.get(setup.fill) || 0) > 0)
        || (row && [...dealt().left.keys()].some((key) => dealt().pools[key].includes(card.id)));
      const disabled = !row || Boolean(S.roles) || fromSetup || card.id === (setup && setup.fill) || (!added && !free);
      return el("li", {}, el("label", { class: "check" },
        el("input", { type: "checkbox", checked: count > 0, disabled, "data-card": card.id, onchange: (event) => {
          S.with = event.target.checked ? [...S.with, card.id] : S.with.filter((id) => id !== card.id);
          redraw();
        } }),
        el("span", {}, card.name), count > 1 ? el("span", { class: "muted" }, ` × ${count}`) : null,
        !count && row && !free && !S.roles ? el("span", { class: "muted" }, ` (${T.no_seat})`) : null));
    });
    const names = [];
    for (let i = 0; i < seatCount(); i++) {
      names.push(el("input", { class: "name", value: S.names[i] || "", placeholder: fill(T.seat, { n: i + 1 }), "aria-label": fill(T.seat, { n: i + 1 }),
        oninput: (event) => { S.names[i] = event.target.value; save(); } }));
    }
    const levels = Object.keys(D.words);
    const breaks = row ? broken(dealt()) : [];
    const screen = el("div", { class: "setup" },
      el("h1", {}, D.name, el("span", { class: "muted" }, ` · ${D.title}`)),
      voiceNotice(),
      S.running ? el("div", { class: "row" }, el("button", { class: "primary", onclick: () => { S.started = true; keepAwake(); show(); } }, T.resume),
        el("button", { onclick: () => { if (confirm(T.confirm_new)) newGame(); } }, T.new_game)) : null,
      el("fieldset", { disabled: S.running },
        D.versions.length > 1 ? field(T.version, el("select", { id: "version", onchange: (event) => { S.version = Number(event.target.value); redraw(); } },
          D.versions.map((v, i) => el("option", { value: i, selected: i === S.version }, v.name)))) : null,
        D.setups.length > 1 ? field(T.setup, el("select", { id: "setup", onchange: (event) => {
          S.setup = Number(event.target.value); S.with = []; S.roles = null;
          if (S.players != null && !D.setups[S.setup].players.includes(S.players)) S.players = D.setups[S.setup].players[0];
          redraw();
        } }, D.setups.map((s, i) => el("option", { value: i, selected: i === S.setup }, s.name)))) : null,
        field(T.players, el("select", { id: "players", onchange: (event) => {
          S.players = event.target.value === "" ? null : Number(event.target.value); S.with = []; S.roles = null; redraw();
        } }, el("option", { value: "", selected: S.players == null }, T.every_card),
        [...new Set([...(D.setups[S.setup] || { players: [] }).players, ...(S.roles ? [S.players] : [])])].sort((a, b) => a - b).map((n) => el("option", { value: n, selected: n === S.players }, n)))),
        !row ? field(T.seats, el("input", { id: "seat-count", type: "number", min: 1, max: 99, value: S.seatCount, onchange: (event) => {
          S.seatCount = Math.max(1, Math.min(99, Number(event.target.value) || 1)); redraw();
        } })) : null,
        el("p", { id: "label", class: "muted" }, label()),
        S.running ? null : el("button", { id: "start", class: "primary big", onclick: start }, T.start),
        el("h2", {}, T.cards_in_play),
        breaks.length ? el("div", { id: "table-rules", class: "notice", role: "alert" }, T.table_rules,
          el("ul", {}, breaks.map((rule) => el("li", {}, rule.says)))) : null,
        el("ul", { id: "cards", class: "cards" }, cards),
        usesWord ? el("div", {}, el("h2", {}, T.word_settings),
          field(T.candidates, el("input", { id: "candidates", type: "number", min: 1, max: 20, value: S.count, onchange: (event) => { S.count = Math.max(1, Math.min(20, Number(event.target.value) || 1)); S.candidates = []; save(); } })),
          levels.length > 1 ? field(T.level, el("select", { id: "level", onchange: (event) => { S.level = event.target.value; S.candidates = []; save(); } },
            ["any", ...levels].map((level) => el("option", { value: level, selected: level === S.level }, T[`level_${level}`] || level)))) : null) : null,
        field(T.day_timer, el("input", { id: "day-timer", type: "number", min: 0.25, max: 60, step: 0.25, value: S.dayTimer / 60, onchange: (event) => {
          S.dayTimer = Math.round(Math.max(0.25, Math.min(60, Number(event.target.value) || 1)) * 60); save();
        } })),
        el("h2", {}, T.seat_names), el("div", { class: "names" }, names),
        el("label", { class: "check" }, el("input", { id: "auto", type: "checkbox", checked: S.auto, onchange: (event) => { S.auto = event.target.checked; save(); } }), T.auto)),
      el("details", {}, el("summary", {}, T.script_view), scriptView()));
    app.replaceChildren(screen);
  }
  function start() {
    unlockAudio();
    S.running = true;
    S.started = true;
    S.phase = 0;
    S.step = 0;
    S.night = 0;
    S.out = [];
    S.choices = {};
    S.dawn = {};
    S.clocks = {};
    S.word = null;
    S.candidates = [];
    S.guessed = null;
    S.shown = false;
    S.winner = null;
    if (nightKinds.includes(phases()[0].kind)) S.night = 1;
    settle(1);
    save();
    keepAwake();
    show();
  }

  if (S.running && S.started) { keepAwake(); show(); } else renderSetup();
  document.documentElement.dataset.ready = String(Math.round(performance.now()));
})();
