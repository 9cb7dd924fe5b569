// The seat circle, the page's grimoire: each seat with its name, its card once known, alive or under a
// shroud, and its reminders. The step's choices (the Guard's protection, the wolves' target, the vote ...)
// are taps on its seats; a tap outside a choice opens the seat's sheet. Also the private screen, which
// shows one player a secret (the word, a card) and then hides it for good.

// ---- reminders: those kept in the game, and those tonight's choices will leave at dawn
function reminderName(id) {
  return T[`reminder_${id.replace(/-/g, "_")}`] || id.replace(/-/g, " ");
}
function nightReminders() {
  const state = ruleState();
  return G().choices.filter((c) => c.seat !== null).flatMap((choice) => Rules.lasting(game, state, choice));
}
function addReminders(g, list) {
  for (const { seat, id, by } of list) {
    if (!(g.reminders[seat] || []).some((r) => r.id === id && r.by === (by ?? null))) {
      g.reminders[seat] = [...(g.reminders[seat] || []), { id, by: by ?? null, night: g.night }];
    }
  }
}

// ---- the step's choices: which one a tap assigns, what was chosen, what the rules refuse
let active = { step: null, index: 0 };
const atOf = (index) => `${stepKey()}/${index}`;
function chosen(index) {
  const g = G();
  const at = atOf(index);
  if (at in g.picks) return g.picks[at];
  const choice = g.choices.find((c) => c.at === at);
  return choice ? choice.seat : undefined;
}
function activeChoice(line) {
  if (active.step !== stepKey()) {
    const open = line.choices.findIndex((_, i) => chosen(i) === undefined);
    active = { step: stepKey(), index: Math.max(0, open) };
  }
  return active.index;
}
function allowed(line, index, seat) {
  const state = ruleState();
  state.choices = state.choices.filter((c) => c.at !== atOf(index));
  return Rules.allowed(game, state, line.card || null, line.choices[index], seat);
}
const rank = (at) => at.split("/").slice(1).reduce((sum, n) => sum * 1000 + Number(n), 0);
function pick(line, index, seat) {
  const g = G();
  const effect = line.choices[index];
  const at = atOf(index);
  const choice = { by: line.card || null, effect, seat, night: g.night, at };
  if (nightKinds.includes(current().phase.kind)) {
    g.choices = [...g.choices.filter((c) => c.at !== at), choice].sort((a, b) => rank(a.at) - rank(b.at));
  } else {
    // By day a choice acts at once: the Hunter's shot kills, a successor takes the title.
    g.picks[at] = seat;
    if (seat !== null && effect === "kill") die([{ seat, cause: line.card || effect }]);
    else if (seat !== null) addReminders(g, Rules.lasting(game, ruleState(), choice));
  }
  const open = line.choices.findIndex((_, i) => chosen(i) === undefined);
  if (open >= 0) active.index = open;
  change();
  // A look at one card (the Seer's): a choice that leaves nothing behind, the step's only one.
  if (seat !== null && effect === "note" && line.choices.length === 1 && S.cards[seat]
    && !Rules.lasting(game, ruleState(), choice).length) lookAt(line, seat);
}

// ---- the circle
function seatSize(n) {
  return n > 14 ? 44 : n > 9 ? 52 : 60;
}
function circleView(line, night, announceHere, voteHere) {
  const g = G();
  const n = seatCount();
  if (!n) return null;
  const dawn = announceHere && g.dawn && !g.dawn.done ? g.dawn : null;
  const choosing = g.over ? null : line.choices ? line.choices[activeChoice(line)]
    : dawn ? "dawn" : voteHere && !(g.vote && g.vote.done) ? "vote" : null;
  const index = line.choices ? activeChoice(line) : null;
  const pending = night ? nightReminders() : [];
  const targets = new Set(line.choices ? g.choices.filter((c) => c.effect === "target" && c.seat !== null
    && !c.at.startsWith(`${stepKey()}/`)).map((c) => c.seat) : []);
  const selected = (i) => (index !== null ? chosen(index) === i : choosing === "dawn" ? dawn.deaths.some((d) => d.seat === i)
    : choosing === "vote" ? (g.vote || {}).seat === i : false);
  function tap(i) {
    if (index !== null) pick(line, index, i);
    else if (choosing === "dawn") toggleDeath(i);
    else if (choosing === "vote") { g.vote = { seat: i, done: false }; change(); }
    else if (i !== null) seatSheet(i);
  }
  const seats = [];
  for (let i = 0; i < n; i++) {
    // Round the table clockwise from the top, as the seats are numbered.
    const angle = (2 * Math.PI * i) / n - Math.PI / 2;
    const reminders = [...(g.reminders[i] || []).map((r) => ({ ...r, pending: false })),
      ...pending.filter((r) => r.seat === i).map((r) => ({ ...r, pending: true }))];
    const refused = index !== null && !allowed(line, index, i);
    const canTap = choosing ? alive(i) && !refused && !(index !== null && g.picks[atOf(index)] !== undefined) : true;
    seats.push(el("button", {
      class: `seat${selected(i) ? " on" : ""}${targets.has(i) ? " targeted" : ""}`,
      "data-seat": String(i), "data-alive": alive(i) ? "1" : "0", "data-card": S.cards[i] || null,
      style: { left: `${50 + 50 * Math.cos(angle)}%`, top: `${50 + 50 * Math.sin(angle)}%` },
      title: seatName(i), disabled: !canTap, onclick: () => tap(i),
    }, el("span", { class: "name" }, S.names[i] && S.names[i].trim() ? seatName(i) : String(i + 1)),
    S.cards[i] ? el("span", { class: "card" }, names[S.cards[i]]) : null,
    reminders.length ? el("span", { class: "reminders" }, reminders.map((r) => el("span", {
      class: `reminder${r.pending ? " pending" : ""}`, "data-reminder": r.id, title: reminderName(r.id),
    }, Array.from(reminderName(r.id))[0].toUpperCase()))) : null));
  }
  const middle = [];
  if (line.choices && !g.over) {
    middle.push(el("div", { class: "choice-tabs" }, line.choices.map((effect, i) => el("button", {
      class: `small tab${i === index ? " on" : ""}`, "data-choice": String(i),
      onclick: () => { active.index = i; show(true); },
    }, T[`choice_${effect}`] || effect, ": ", chosen(i) === undefined ? "?" : chosen(i) === null ? T.nobody : seatName(chosen(i))))));
    if (targets.size) middle.push(el("p", { class: "target" }, fill(T.target_is, { names: [...targets].map(seatName).join(T.list_separator) })));
  }
  if (choosing && choosing !== "dawn") {
    middle.push(el("button", { class: `small nobody${selected(null) || (index !== null && chosen(index) === null) ? " on" : ""}`,
      "data-seat": "none", disabled: index !== null && g.picks[atOf(index)] !== undefined, onclick: () => tap(null) }, T.nobody));
  }
  return el("div", { id: "circle", "data-choosing": choosing, style: { "--seat": `${seatSize(n)}px` } },
    el("div", { class: "ring" }, seats), el("div", { class: "middle" }, middle));
}

// ---- a seat's sheet: its name, card, reminders, and alive or out
function cardSelect(i, after) {
  const play = inPlay();
  return el("select", { class: "card-of", "aria-label": fill(T.card_of, { seat: seatName(i) }), onchange: (event) => {
    S.cards[i] = event.target.value || null;
    save();
    if (after) after();
  } }, el("option", { value: "" }, T.card_unknown),
  D.cards.filter((card) => play.has(card.id)).map((card) => el("option", { value: card.id, selected: S.cards[i] === card.id }, card.name)));
}
function seatSheet(i) {
  const g = G();
  const close = dialog("seat-sheet", el("div", { class: "row spread" }, el("h2", {}, seatName(i)),
    el("button", { class: "small", onclick: () => { close(); show(true); } }, T.close)),
  el("input", { class: "name", value: S.names[i] || "", placeholder: fill(T.seat, { n: i + 1 }), "aria-label": fill(T.seat, { n: i + 1 }),
    oninput: (event) => { S.names[i] = event.target.value; save(); } }),
  cardSelect(i),
  el("ul", { class: "reminder-list" }, (g.reminders[i] || []).map((r, k) => el("li", {}, reminderName(r.id), " ",
    el("button", { class: "small", onclick: () => {
      g.reminders[i] = g.reminders[i].filter((_, j) => j !== k);
      close(); change(); seatSheet(i);
    } }, T.remove)))),
  el("div", { class: "row" }, el("button", { class: alive(i) ? "" : "good", onclick: () => {
    close();
    if (alive(i)) die([{ seat: i, cause: "moderator" }]);
    else { g.alive[i] = true; change(); }
  } }, alive(i) ? T.mark_out : T.mark_alive)));
}

// ---- the private screen: "hand the phone to ...", a tap shows the secret, a tap (or the step's time)
// hides it for good, so that neither Back nor a reload shows it again
function privateSpec(line) {
  const g = G();
  if (line.secretRole === "choose" || line.word === "choose") {
    return { key: "choose", to: names[line.card] || T.mayor, content: chooseContent(line) };
  }
  if (["show", "initials", "ask"].includes(line.word) && S.word) {
    const shown = !line.ifSecret || line.ifSecret.includes(S.secretRole);
    // The Fortune Teller's letters were worked out by the build (pinyin initials in Chinese).
    const secret = line.word === "initials" ? D.initials[S.word] : S.word;
    return {
      // One look a role's call, whichever of its steps (the call's words, the narrator's) shows it.
      key: `${g.night}/${line.card || stepKey()}/word`, to: names[line.card] || T.everyone, hold: line.pause ?? D.settings.pause.action,
      content: () => (shown ? [el("div", { class: "caption" }, line.word === "initials" ? T.initials : T.the_word), el("div", { class: "secret" }, secret)]
        : [el("div", { class: "secret nothing" }, T.nothing_to_see)]),
    };
  }
  return g.look && g.look.step === stepKey() ? g.look : null;
}
const secretPending = (line) => Boolean(privateSpec(line)) && !S.sealed[privateSpec(line).key];
function lookAt(line, seat) {
  G().look = { step: stepKey(), key: `${stepKey()}/look/${seat}`, seat, to: names[line.card] || seatName(seat) };
  S.sealed[G().look.key] = false;
  save();
  openPrivate(line, () => {});
}
// The Mayor's secret role (a card in play), then the word, each a tap.
function chooseContent(line) {
  return (redraw) => {
    if (line.secretRole === "choose" && !S.secretRole) {
      const roles = [...inPlay()].filter((id) => id !== line.card && cardOf[id] && cardOf[id].group === "role");
      return [el("div", { class: "caption" }, T.choose_role), el("div", { class: "candidates" }, roles.map((id) =>
        el("button", { class: "candidate role", "data-card": id, onclick: () => {
          S.secretRole = id;
          if (!line.word) S.sealed.choose = true;
          save();
          redraw();
        } }, names[id])))];
    }
    if (!line.word) return [el("div", { class: "caption" }, T.your_role), el("div", { class: "secret" }, names[S.secretRole])];
    if (S.word) return [el("div", { class: "caption" }, T.the_word), el("div", { class: "secret" }, S.word)];
    if (!S.candidates.length) drawWords();
    return [el("div", { class: "caption" }, T.choose_word),
      el("div", { class: "candidates" }, S.candidates.map((word) => el("button", {
        class: "candidate", onclick: () => { S.word = word; S.sealed.choose = true; save(); redraw(); },
      }, word))),
      el("button", { class: "small", onclick: () => { drawWords(); save(); redraw(); } }, T.other_words)];
  };
}
function openPrivate(line, resume) {
  const spec = privateSpec(line);
  document.getElementById("private")?.remove();
  if (!spec || S.sealed[spec.key]) return;
  const body = el("div", { class: "panel" });
  const box = el("div", { id: "private", role: "dialog", "aria-modal": "true" }, body);
  let hidden = false;
  function hide() {
    if (hidden) return;
    hidden = true;
    S.sealed[spec.key] = true;
    if (G().look && G().look.key === spec.key) G().look = null;
    save();
    box.remove();
    show(true);
    resume();
  }
  function reveal() {
    // A secret once shown is sealed at once: a reload while it is on screen does not show it again.
    if (!spec.content || spec.key.endsWith("/word")) S.sealed[spec.key] = "showing";
    save();
    const content = spec.content ? spec.content(reveal) : [el("div", { class: "caption" }, seatName(spec.seat)),
      el("div", { class: "secret" }, names[S.cards[spec.seat]])];
    const done = spec.key !== "choose" || S.word || (S.secretRole && !line.word);
    // replaceChildren would write a null as the text "null": only the nodes go in.
    body.replaceChildren(...[el("h2", {}, fill(T.for_only, { who: spec.to })), ...content,
      done ? el("button", { id: "private-hide", class: "primary big", onclick: hide }, T.private_hide) : null].filter(Boolean));
    if (done && spec.hold) later(hide, spec.hold * 1000);
  }
  body.append(el("h2", {}, fill(T.hand_to, { who: spec.to })), el("p", { class: "muted" }, T.private_note),
    el("button", { id: "private-show", class: "primary big", onclick: reveal }, T.private_show));
  document.body.append(box);
}
