// The secret word's steps, the dawn's deaths, the day's vote, the win check after every death, and the
// game's end: who won (only the teams the step or the table allows) and, in Werewords, the word.

// ---- the secret word
function drawWords() {
  const pool = S.level === "any" ? Object.values(D.words).flat() : D.words[S.level] || [];
  const words = [...new Set(pool)];
  S.candidates = [];
  while (S.candidates.length < Math.min(S.count, words.length)) {
    const word = words[random(words.length)];
    if (!S.candidates.includes(word)) S.candidates.push(word);
  }
}
// What the step shows on the table's screen: never the secret itself, which only the private screen shows.
function wordWidget(line) {
  if (line.word === "guess") {
    const g = G();
    const set = (value) => { g.guessed = value; change(); };
    return el("div", { class: "row" },
      el("button", { class: `good${g.guessed === true ? " on" : ""}`, onclick: () => { set(true); go(1); } }, T.guessed),
      el("button", { class: g.guessed === false ? "on" : "", onclick: () => { set(false); go(1); } }, T.not_guessed));
  }
  if (line.word && line.word !== "choose" && !S.word) return el("p", { class: "notice" }, T.no_word);
  const spec = privateSpec(line);
  if (spec && S.sealed[spec.key] === true) return el("p", { class: "muted private-done" }, T.private_done);
  return null;
}

// ---- the dawn: the deaths Rules.dawn suggests, which the moderator may change before announcing them
// The dawn's announcement is at its `announce` step, or at the dawn's first step.
function isAnnounceStep() {
  const { phase } = current();
  if (phase.kind !== "dawn" && !phase.lines.some((l) => l.announce)) return false;
  const at = phase.lines.findIndex((l) => l.announce === "deaths");
  return G().step === (at >= 0 ? at : phase.kind === "dawn" ? 0 : -1);
}
function dawnWidget(resume) {
  const g = G();
  if (!g.dawn || g.dawn.night !== g.night) g.dawn = { night: g.night, ...Rules.dawn(game, ruleState()), done: false };
  const dawn = g.dawn;
  if (dawn.done) return el("p", { class: "announced" }, announcement(dawn.deaths));
  return el("div", { class: "dawn" }, el("div", { class: "caption" }, T.dawn_title),
    el("p", { class: "dying" }, dawn.deaths.length ? dawn.deaths.map((d) => seatName(d.seat)).join(T.list_separator) : T.nobody),
    el("button", { id: "announce", class: "primary", onclick: () => announce(resume) }, T.announce));
}
function toggleDeath(seat) {
  const dawn = G().dawn;
  dawn.deaths = dawn.deaths.some((d) => d.seat === seat) ? dawn.deaths.filter((d) => d.seat !== seat)
    : [...dawn.deaths, { seat, cause: "moderator" }].sort((a, b) => a.seat - b.seat);
  change();
}
const announcement = (deaths) => (deaths.length
  ? fill(T.dawn_deaths, { names: deaths.map((d) => seatName(d.seat)).join(T.list_separator) }) : T.dawn_none);
function announce(resume) {
  const g = G();
  const dawn = g.dawn;
  // What the night leaves on the seats: its choices' reminders, then what the dawn adds and takes away.
  // (Those that end go first: last night's protection makes way for tonight's.)
  const left = nightReminders();
  for (const { seat, id } of dawn.remove) g.reminders[seat] = (g.reminders[seat] || []).filter((r) => r.id !== id);
  addReminders(g, [...left, ...dawn.add]);
  dawn.done = true;
  const deaths = dawn.deaths.filter((d) => alive(d.seat));
  speak(announcement(deaths), resume);
  die(deaths);
}

// ---- deaths at any time: the chain they set off, then the win check
function die(deaths) {
  const g = G();
  const fresh = deaths.filter((d) => alive(d.seat));
  // A card that survives the vote (the Village Idiot) is shown and stays, but its lines are read.
  const spared = fresh.filter((d) => d.cause === "vote" && (game.cards[S.cards[d.seat]] || { rules: {} }).rules.survivesVote);
  const dying = fresh.filter((d) => !spared.includes(d));
  addReminders(g, spared.map((d) => ({ seat: d.seat, id: "revealed", by: S.cards[d.seat] })));
  const chained = dying.length ? Rules.chain(game, ruleState(), dying).filter((d) => alive(d.seat)) : [];
  const all = [...dying, ...chained];
  const after = Rules.settle(game, ruleState(), all);
  for (const d of all) g.alive[d.seat] = false;
  for (const { seat, id } of after.remove) g.reminders[seat] = (g.reminders[seat] || []).filter((r) => r.id !== id);
  addReminders(g, after.add);
  g.batch = [...g.batch, ...spared, ...all];
  change();
  if (all.length) winCheck();
}
function teamCounts() {
  const counts = new Map();
  for (let i = 0; i < seatCount(); i++) {
    if (alive(i) && teamOf(S.cards[i])) counts.set(teamOf(S.cards[i]), (counts.get(teamOf(S.cards[i])) || 0) + 1);
  }
  return D.teams.filter((team) => counts.has(team.id)).map((team) => fill(T.team_alive, { team: team.name, n: counts.get(team.id) }));
}
function winCheck() {
  document.getElementById("win-check")?.remove();
  const close = dialog("win-check", el("h2", {}, T.win_check), D.winCheck.length ? el("p", {}, rich(checkParts(inPlay()))) : null,
    el("ul", { class: "counts" }, teamCounts().map((line) => el("li", {}, line))),
    el("div", { class: "row" }, el("button", { id: "play-on", onclick: () => close() }, T.play_on),
      el("button", { id: "game-over", class: "primary", onclick: () => { close(); gameOver(); } }, T.game_over)));
}
// Straight to the end phase, as a step forward that Back undoes.
function gameOver() {
  const list = phases();
  const end = list.findIndex((p) => p.kind === "end" && p.lines.length);
  S.history.push(structuredClone(S.G));
  S.future = [];
  const g = G();
  g.phase = end >= 0 ? end : list.length - 1;
  g.step = 0;
  g.batch = [];
  if (!settle(g)) { g.step = 0; }
  save();
  show();
}

// ---- the day's vote: a seat of the circle, or nobody, then the vote-out
function isVoteStep() {
  const { phase } = current();
  const g = G();
  return phase.kind === "day" && !g.over && !(g.vote && g.vote.done)
    && phase.lines.some((l) => l.deadly || l.died || l.deaths !== undefined);
}
function voteWidget() {
  const g = G();
  const seat = g.vote ? g.vote.seat : undefined;
  return el("div", { id: "vote" }, el("div", { class: "caption" }, T.vote_title),
    el("p", { class: "voted" }, seat === undefined ? T.vote_tap : seat === null ? T.nobody : seatName(seat)),
    el("button", { id: "vote-out", class: "primary", disabled: seat === undefined, onclick: () => {
      g.vote = { seat, done: true };
      if (seat === null) change();
      else die([{ seat, cause: "vote" }]);
    } }, seat === null ? T.vote_nobody : T.vote_out));
}

// ---- the end: who won, then the game-end screen; after it nothing more is read
function endWidget(phase, line) {
  const g = G();
  const team = D.teams.find((t) => t.id === g.winner);
  if (g.over) {
    return el("div", { id: "game-end" }, el("h2", {}, T.game_over),
      el("p", { class: "announced" }, g.outcome !== null ? plain(g.outcome) : fill(T.winner, { team: team ? team.name : "" })),
      S.word ? el("p", { class: "word-end" }, el("span", { class: "caption" }, T.the_word), " ", el("strong", {}, S.word)) : null,
      el("button", { class: "primary", onclick: newGame }, T.new_game));
  }
  const finish = (said) => {
    g.over = true;
    S.future = [];
    save();
    stopAll();
    show(true);
    speak(said);
  };
  const ways = outcomes(phase);
  if (ways && !line.winners) {
    // The phase's other steps say how to tell which side won: they stay in view beside the choice.
    const notes = phase.lines.filter((l) => l.kind !== "say" && l !== line && !skip(l, g));
    return el("div", { id: "winner" }, el("div", { class: "caption" }, T.who_won),
      notes.length ? el("ul", { class: "notes" }, notes.map((l) => el("li", {}, rich(l.text)))) : null,
      el("div", { class: "outcomes" }, ways.map((l, i) => el("button", { class: "team outcome", "data-outcome": i, onclick: () => {
        g.outcome = l.text;
        finish(l.text);
      } }, rich(l.text)))));
  }
  const play = inPlay();
  const playing = D.teams.filter((t) => D.cards.some((card) => card.team === t.id && play.has(card.id)));
  const named = line.winners ? playing.filter((t) => line.winners.includes(t.id)) : [];
  const teams = named.length ? named : line.winners ? D.teams.filter((t) => line.winners.includes(t.id)) : playing;
  return el("div", { id: "winner" }, el("div", { class: "caption" }, T.who_won), el("div", { class: "teams" }, teams.map((t) =>
    el("button", { class: "team", "data-team": t.id, onclick: () => {
      g.winner = t.id;
      finish(line.winners && PLACEHOLDER.test(line.text) ? lineText(line) : fill(T.winner, { team: t.name }));
    } }, t.name))));
}
