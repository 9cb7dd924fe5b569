// The game's rules for the narrator page: from the night's choices and the seats' reminders to the
// deaths the dawn suggests, the deaths they set off, which choices may be made and the reminders they
// leave. Pure functions of (game, state): nothing here touches the page or changes its arguments.
//
// game  = {cards: {id: {id, team, group, rules}}, rules: {...the game's night rules, reminders: {id: lasts}}}
// state = {night, seats: [{card, alive, reminders: [{id, by, night}]}], choices: [{by, effect, seat, night}]}
// A death is {seat, cause, by}: cause is the effect that killed (target, poison, kill), or what set it off
// (grief, instead: the Bodyguard in his client's place, with: the revealed Idiot with the Elder, vote...).
const Rules = (() => {
  // What each choice leaves on its seat; `used-` reminders mark an effect a card may use once a game.
  const LEAVES = {protect: "protected", save: "used-save", poison: "used-poison", love: "lover",
    charm: "charmed", block: "blocked", jail: "jailed"};
  // Reminders whose seat does nothing at night; a group's call goes on with blocked members (Mafia).
  const DISABLING = ["charmed", "blocked", "jailed", "powerless"];
  const GROUP_DISABLING = ["charmed", "jailed"];

  const rulesOf = (game, id) => (id && game.cards[id] && game.cards[id].rules) || {};
  const has = (seat, id) => seat.reminders.some(r => r.id === id);
  const seatsOf = (state, card) => state.seats.map((s, i) => i).filter(i => state.seats[i].card === card);
  const teamOf = (game, seat) => seat.card && game.cards[seat.card] ? game.cards[seat.card].team : null;

  // The group that wakes together at a card's call: the seats holding it, or (Mafia) every seat whose
  // card or team is one of its `members`.
  function members(game, state, by) {
    const of = rulesOf(game, by).members;
    return state.seats.map((s, i) => i).filter(i => {
      const seat = state.seats[i];
      return seat.card === by || (of && seat.card && (of.includes(seat.card) || of.includes(teamOf(game, seat))));
    });
  }

  // Whether a kill on `seat` is stopped by a charm or by a protection among `choices` (the Bodyguard's
  // too: he takes the hit, his client lives).
  function shielded(seat, choices, disabled) {
    if (disabled[seat] && disabled[seat].includes("charmed")) return true;
    return choices.some(c => c.effect === "protect" && c.seat === seat);
  }

  // The night's choices that take effect, in call order, and what each left disabled: a choice by a
  // card whose every seat is out, charmed, blocked, jailed, powerless or a struck Leader does nothing.
  function effective(game, state) {
    // Tonight's charms, blocks and jailings count from their choice on, not from the night's start.
    const disabled = state.seats.map(s => s.reminders.filter(r => (r.id === "jailed" && !(r.night >= state.night)) ||
      r.id === "powerless").map(r => r.id));
    const kept = [];
    const struck = game.rules.struckPowerless || [];
    for (const choice of state.choices) {
      if (choice.seat === null || choice.seat === undefined) continue;
      if (!allowedWith(game, state, kept, disabled, choice.by, choice.effect, choice.seat)) continue;
      kept.push(choice);
      const left = lasting(game, state, choice)[0];
      if (left && DISABLING.includes(left.id)) disabled[choice.seat] = [...disabled[choice.seat], left.id];
      if (choice.effect === "target" && struck.includes(teamOf(game, state.seats[choice.seat])) &&
          !shielded(choice.seat, kept, disabled)) {
        disabled[choice.seat] = [...disabled[choice.seat], "struck"];
      }
    }
    return {kept, disabled};
  }

  function allowedWith(game, state, kept, disabled, by, effect, seat) {
    if (seat === null || seat === undefined) return true;
    const target = state.seats[seat];
    if (!target || !target.alive) return false;
    const rules = rulesOf(game, by);
    const mine = by ? (rules.together ? members(game, state, by) : seatsOf(state, by)) : [];
    // The Hunter shoots as he dies: only his other choices need him alive.
    const able = i => (effect === "kill" || state.seats[i].alive) &&
      !(disabled[i] || []).some(id => (rules.together ? GROUP_DISABLING : [...DISABLING, "struck"]).includes(id));
    if (mine.length && !mine.some(able)) return false;
    const self = target.card === by && !rules.together;
    if (self && ((rules.notSelf || []).includes(effect) || game.rules.notSelf)) return false;
    const tonight = kept.filter(c => c.by === by);
    if (rules.oneANight && tonight.length) return false;
    if ((rules.once || []).includes(effect) && (tonight.some(c => c.effect === effect) ||
        state.seats.some(s => s.reminders.some(r => r.id === LEAVES[effect] && r.by === by && !(r.night >= state.night))))) {
      return false;
    }
    if (rules.noRepeat && target.reminders.some(r => r.id === LEAVES[effect] && r.by === by && r.night === state.night - 1)) {
      return false;
    }
    // A healing potion saves the night's victim, no one else.
    if (effect === "save" && !kept.some(c => c.effect === "target" && c.seat === seat)) return false;
    return true;
  }

  function lasting(game, state, choice) {
    if (choice.seat === null || choice.seat === undefined) return [];
    const rules = rulesOf(game, choice.by);
    let id = LEAVES[choice.effect] || (choice.effect === "note" ? rules.leaves : null);
    if (choice.effect === "jail" && !(rules.jails || []).includes(teamOf(game, state.seats[choice.seat]))) id = null;
    return id ? [{seat: choice.seat, id, by: choice.by || null, night: state.night}] : [];
  }

  // One landed target: who dies of it, and the life it takes from a card with more than one.
  function hit(game, state, kept, disabled, choice, out) {
    const seat = state.seats[choice.seat];
    const rules = rulesOf(game, seat.card);
    if ((disabled[choice.seat] || []).includes("charmed")) return;
    if ((rulesOf(game, choice.by).spares || []).includes(teamOf(game, seat))) return;
    const protectors = kept.filter(c => c.effect === "protect" && c.seat === choice.seat && rules.protectable !== false);
    const plain = protectors.filter(c => !rulesOf(game, c.by).diesInstead);
    const saved = kept.some(c => c.effect === "save" && c.seat === choice.seat);
    if (plain.length) {
      if (saved && game.rules.overProtectDies) out.deaths.push({seat: choice.seat, cause: "target", by: choice.by});
      return;
    }
    const instead = protectors.find(c => !plain.includes(c));
    if (instead) {
      for (const i of seatsOf(state, instead.by).filter(i => state.seats[i].alive)) {
        if (!shielded(i, kept.filter(c => !rulesOf(game, c.by).diesInstead), disabled)) {
          out.deaths.push({seat: i, cause: "instead", by: choice.by});
        }
      }
      return;
    }
    if (rules.lives > 1) {
      const left = rules.lives - seat.reminders.filter(r => r.id === "lost-life").length -
        out.add.filter(r => r.seat === choice.seat && r.id === "lost-life").length;
      // A heal keeps the victim alive but not the life: the last one is the only one it saves.
      if (left > 1) {
        out.add.push({seat: choice.seat, id: "lost-life", by: choice.by || null, night: state.night});
        return;
      }
    }
    if (!saved) out.deaths.push({seat: choice.seat, cause: "target", by: choice.by});
  }

  function dawn(game, state) {
    const {kept, disabled} = effective(game, state);
    const out = {deaths: [], add: [], remove: []};
    if (state.night > 1 || game.rules.firstNightKills !== false) {
      const targets = kept.filter(c => c.effect === "target");
      // Two kills on one player are one death (the Mafia and the Yakuza on the same victim).
      for (const choice of targets.filter((c, i) => targets.findIndex(o => o.seat === c.seat) === i)) {
        hit(game, state, kept, disabled, choice, out);
      }
      for (const c of kept.filter(c => c.effect === "poison")) out.deaths.push({seat: c.seat, cause: "poison", by: c.by});
    }
    const deaths = out.deaths.filter((d, i) => out.deaths.findIndex(o => o.seat === d.seat) === i);
    const all = [...deaths, ...chain(game, state, deaths)];
    const after = settle(game, state, all);
    const lasts = game.rules.reminders || {};
    state.seats.forEach((s, seat) => s.reminders.forEach(r => {
      const ends = lasts[r.id] === "night" ? r.night <= state.night : lasts[r.id] === "day" && r.night < state.night;
      if (ends) out.remove.push({seat, id: r.id});
    }));
    return {deaths: all, add: [...out.add, ...after.add], remove: [...out.remove, ...after.remove]};
  }

  // Deaths that others set off at once: a lover's grief, the revealed Idiot with the Elder.
  function chain(game, state, deaths) {
    const dead = new Set(deaths.map(d => d.seat));
    const more = [];
    const queue = [...deaths];
    const alive = i => state.seats[i].alive && !dead.has(i);
    while (queue.length) {
      const death = queue.shift();
      const seat = state.seats[death.seat];
      const found = [];
      if (has(seat, "lover")) {
        state.seats.forEach((s, i) => { if (alive(i) && has(s, "lover")) found.push({seat: i, cause: "grief", by: null}); });
      }
      const rules = rulesOf(game, seat.card);
      if ((rules.deathTakes || []).length && !(rules.deathUnlessBy || []).includes(death.by)) {
        state.seats.forEach((s, i) => {
          if (alive(i) && rules.deathTakes.some(id => has(s, id))) found.push({seat: i, cause: "with", by: seat.card});
        });
      }
      for (const d of found) { dead.add(d.seat); more.push(d); queue.push(d); }
    }
    return more;
  }

  // The reminders these deaths leave or end: the Elder's betrayal takes the village's powers, and a
  // jailer's death frees his prisoners.
  function settle(game, state, deaths) {
    const add = [];
    const remove = [];
    for (const death of deaths) {
      const card = state.seats[death.seat].card;
      const rules = rulesOf(game, card);
      if ((rules.deathDisables || []).length && !(rules.deathUnlessBy || []).includes(death.by)) {
        state.seats.forEach((s, i) => {
          if (rules.deathDisables.includes(s.card)) add.push({seat: i, id: "powerless", by: card, night: state.night});
        });
      }
      if ((rules.jails || []).length) {
        state.seats.forEach((s, i) => s.reminders.forEach(r => { if (r.by === card && r.id === "jailed") remove.push({seat: i, id: r.id}); }));
      }
    }
    return {add, remove};
  }

  function allowed(game, state, by, effect, seat) {
    const {kept, disabled} = effective(game, state);
    return allowedWith(game, state, kept, disabled, by, effect, seat);
  }

  function triggers(state, deaths) {
    const ids = new Set();
    for (const death of deaths) {
      const seat = state.seats[death.seat];
      if (seat.card) ids.add(seat.card);
      seat.reminders.forEach(r => ids.add(r.id));
    }
    return ids;
  }

  return {dawn, chain, allowed, lasting, triggers, settle};
})();
window.cardgenRules = Rules;
