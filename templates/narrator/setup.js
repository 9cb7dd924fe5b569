// The setup screen: the version, the setup, the player count, the cards in play, the seats' names and
// cards, and the start of a game; last of the page's files, it starts the page once all are read.

// ---- the setup screen
function newGame() {
  const keep = { version: S.version, setup: S.setup, players: S.players, with: S.with, roles: S.roles, names: S.names,
    cards: S.cards, seatCount: S.seatCount, count: S.count, level: S.level, dayTimer: S.dayTimer, auto: S.auto };
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
    names.push(el("div", { class: "seat-setup" },
      el("input", { class: "name", value: S.names[i] || "", placeholder: fill(T.seat, { n: i + 1 }), "aria-label": fill(T.seat, { n: i + 1 }),
        oninput: (event) => { S.names[i] = event.target.value; save(); } }),
      cardSelect(i)));
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
  Object.assign(S, { running: true, started: true, G: freshGame(), history: [], future: [], sealed: {}, clocks: {},
    word: null, candidates: [], secretRole: null });
  // The page that runs the game alone goes on by itself.
  if (pageRuns()) S.auto = true;
  G().alive = Array(seatCount()).fill(true);
  G().reminders = Array.from({ length: seatCount() }, () => []);
  if (nightKinds.includes(phases()[0].kind)) G().night = 1;
  settle(G());
  save();
  keepAwake();
  show();
}

// Once every file of the page is read (they are one script), the page starts where the game stands.
queueMicrotask(() => {
  if (S.running && S.started) { keepAwake(); show(); } else renderSetup();
  document.documentElement.dataset.ready = String(Math.round(performance.now()));
});
