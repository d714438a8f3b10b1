// The web table: shows what the server sends this device, and sends back the decisions.
// Nothing here knows a rule: the choices, the log and every number come from the server.
"use strict";
const $ = (id) => document.getElementById(id);
const tableId = document.body.dataset.table;
const store = `county-uppy-seats-${tableId}`;
let deck = null, deckGame = -1, last = null, shownLog = 0, logKey = "", ws = null, retry = 500, clockEnd = null;
// Seats this page was told are played in another tab or on another device: its hello no longer
// claims them (a reconnect must not take them back) until the person says "play here again".
let paused = false, asked = -1, receivedAt = 0;

function tokens() { try { return JSON.parse(localStorage.getItem(store) || "{}"); } catch (e) { return {}; } }
function keep(more) { localStorage.setItem(store, JSON.stringify(Object.assign(tokens(), more))); }
function forget(seats) {
  const t = tokens();
  for (const s of seats) delete t[s];
  localStorage.setItem(store, JSON.stringify(t));
}
function hello() { send({ type: "hello", tokens: paused ? {} : tokens() }); }
function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function problem(text) {
  const p = $("problem");
  p.textContent = text || "";
  p.hidden = !text;
}

function notice(text, offerBack) {
  $("notice-text").textContent = text || "";
  $("notice").hidden = !text;
  $("play-here").hidden = !offerBack;
}

function takeAway(seat, away) { return `Take seat ${seat} (away ${minutes(away)})`; }
function awayText(away, gone) { return `○ away ${minutes(away)}${gone ? ": anyone may take this seat" : ""}`; }

function minutes(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function cardEl(code, small) {
  const card = deck && deck.cards[code];
  const el = document.createElement("figure");
  el.className = "card" + (small ? " small" : "");
  el.dataset.code = code;
  if (card && card.image) {
    const img = document.createElement("img");
    img.src = `/card?code=${encodeURIComponent(code)}`;
    img.alt = label(code);
    img.title = label(code) + (card.text ? `: ${card.text}` : "");
    el.appendChild(img);
  } else {
    el.classList.add("chip");
    el.appendChild(chip(code));
  }
  return el;
}

function chip(code) {
  const span = document.createElement("span");
  const card = deck && deck.cards[code];
  if (!card) { span.textContent = code; return span; }
  if (card.number) {
    card.colours.forEach((c, i) => {
      if (i) span.append(" / ");
      const tag = document.createElement("b");
      tag.style.color = c.rgb;
      tag.textContent = `${c.shape} ${c.name}`;
      span.append(tag);
    });
    span.append(` ${card.value}`);
  } else {
    span.textContent = card.name;
  }
  span.title = card.text || "";
  return span;
}

function label(code) {
  const card = deck && deck.cards[code];
  if (!card) return code;
  if (!card.number) return card.name;
  return card.colours.map((c) => `${c.shape} ${c.name}`).join(" / ") + ` ${card.value}`;
}

async function loadDeck(game) {
  if (deckGame === game && deck) return;
  const r = await fetch("/deck.json", { cache: "no-store" });
  deck = await r.json();
  deckGame = game;
  const rules = deck.rules;
  $("goal").textContent = rules.goal;
  const items = (id, lines) => $(id).replaceChildren(...lines.map((text) =>
    Object.assign(document.createElement("li"), { textContent: text })));
  items("how-turn", rules.turn);
  items("how-penalties", rules.penalties);
  items("how-wilds", rules.wilds.map((w) => `${w.name}: ${w.short}`));
  items("how-variants", rules.variants);
  $("how-variants-box").hidden = !rules.variants.length;
}

function seatName(m, k) { return m.seats[k]; }

function render(m) {
  last = m;
  const mine = m.mine || [];
  $("who").textContent = mine.length === 0 ? "watching" :
    mine.length > 1 ? `hot-seat: seats ${mine.join(", ")}` : `you are seat ${mine[0]}`;
  $("banner").hidden = !m.manifest_changed;
  $("banner").textContent = m.manifest_changed || "";
  $("how-timeout").textContent = m.reconnect_timeout;
  // lobby: seats a device with none may take (free, away too long, or given to a bot)
  $("lobby").hidden = mine.length > 0 || m.takeable.length === 0;
  const free = $("free");
  free.replaceChildren();
  for (const s of m.takeable) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    const p = m.presence[s];
    b.type = "button";
    b.textContent = p.state === "bot" ? `Take seat ${s} back from the bot` :
      p.state === "away" ? takeAway(s, p.away) : `Play seat ${s}`;
    b.dataset.seat = s;
    if (p.state === "away") b.dataset.away = p.away;
    b.onclick = () => { paused = false; notice(""); send({ type: "claim", seat: s }); };
    li.appendChild(b);
    free.appendChild(li);
  }
  $("hotseat").hidden = m.free.length < 2;
  // hot-seat hand-over: nothing of the table until the right person says so
  const hand = m.handover !== null && m.handover !== undefined;
  $("handover").hidden = !hand;
  $("table").hidden = hand;
  if (hand) {
    $("hand").replaceChildren();  // the last person's cards leave the page, not only the screen
    $("choices").replaceChildren();
    $("handover-title").textContent = `Pass the device to seat ${m.handover}`;
    $("reveal").textContent = `I am seat ${m.handover}: show my hand`;
    $("reveal").onclick = () => send({ type: "reveal", seat: m.handover });
    document.body.dataset.status = "handover";
    document.body.dataset.seq = m.seq;
    $("status").textContent = `seat ${m.handover} next`;
    return;
  }
  $("count").textContent = m.count;
  $("target").textContent = `to make ${m.target}`;
  const match = $("match");
  match.replaceChildren(m.match === "start" ? Object.assign(document.createElement("span"),
    { textContent: "start: any card matches" }) : cardEl(m.match, false));
  $("direction").textContent = m.direction === 1 ? "play goes clockwise ↻ (seat numbers up)" :
    "play goes counterclockwise ↺ (seat numbers down)";
  const actor = m.decider;
  $("turn").textContent = m.over ? "the game is over" :
    actor === m.seat ? "your decision" : `waiting for ${seatName(m, actor)}`;
  $("piles").textContent = `draw pile ${m.draw_size} · discard pile ${m.discards}`;
  // what the wilds left waiting: a +/-, a Play 2 (and which of its two cards), a Skip
  $("waiting").replaceChildren(...m.waiting.map((text) => Object.assign(document.createElement("li"),
    { textContent: m.play2 && /^Play 2: seat/.test(text) ? `${text} (${m.played ? "second card" : "first card"})` : text })));
  // seats
  const seats = $("seats");
  seats.replaceChildren();
  m.seats.forEach((name, k) => {
    const li = document.createElement("li");
    li.dataset.seat = k;
    li.className = [k === actor ? "acting" : "", m.out[k] ? "out" : "", k === m.seat ? "you" : ""].join(" ").trim();
    const owes = m.owed.filter((s) => s === k).length;
    li.innerHTML = "";
    const n = document.createElement("span");
    n.className = "name";
    n.textContent = (k === m.turn && !m.over ? "▶ " : "") + name;
    const c = document.createElement("span");
    c.className = "size";
    c.textContent = m.out[k] ? "out" : `${m.hand_sizes[k]} card${m.hand_sizes[k] === 1 ? "" : "s"}`;
    li.append(n, c);
    const p = m.presence[k];
    const pr = document.createElement("span");
    pr.className = `presence ${p.state}`;
    pr.textContent = p.state === "here" ? "● connected" : p.state === "away" ? awayText(p.away, p.gone) :
      p.state === "free" ? "○ free: no one has taken it" : p.person ? "a bot plays this person's seat" : "";
    if (p.state === "away") pr.dataset.away = p.away;
    li.append(pr);
    if (m.controls && p.person && (p.gone || p.state === "free")) {
      const box = document.createElement("span");
      box.className = "controls";
      const control = (to, words) => {
        const b = Object.assign(document.createElement("button"), { type: "button", className: `to-${to}`, textContent: words });
        b.onclick = () => send({ type: "seat", seat: k, to });
        box.append(b);
      };
      control("bot", "give it to a bot");
      if (p.state === "away") control("free", "free the seat");
      li.append(box);
    }
    if (owes) {
      const o = document.createElement("span");
      o.className = "owes";
      o.textContent = `owes ${owes} discard${owes > 1 ? "s" : ""}`;
      li.append(o);
    }
    seats.appendChild(li);
  });
  // in play
  $("inplay").replaceChildren(...m.in_play.map((c) => cardEl(c, true)));
  if (!m.in_play.length) $("inplay").textContent = "nothing: the count starts again from 0";
  // my hand and choices
  const meBox = $("me");
  meBox.hidden = m.seat === null || m.seat === undefined;
  const choices = m.choices || [];
  const byCode = {};
  for (const c of choices) (byCode[c.code] = byCode[c.code] || []).push(c);
  $("hand-title").textContent = m.seat === null ? "" : `Your hand (seat ${m.seat}, ${(m.hand || []).length} card${(m.hand || []).length === 1 ? "" : "s"})`;
  const handEl = $("hand");
  handEl.replaceChildren();
  for (const code of m.hand || []) {
    const el = cardEl(code, false);
    const mineChoices = byCode[code] || [];
    if (mineChoices.length) {
      el.classList.add("playable");
      el.tabIndex = 0;
      el.setAttribute("role", "button");
      el.onclick = () => (mineChoices.length === 1 ? decide(mineChoices[0]) : focusChoices(code));
      const cost = mineChoices.find((c) => c.cost);
      if (cost) { el.classList.add("costly"); el.title = `costs a discard: ${cost.cost}`; }
      const hit = mineChoices.find((c) => c.target);
      if (hit) { el.classList.add("target"); el.title = (el.title ? el.title + "; " : "") + hit.target; }
    }
    handEl.appendChild(el);
  }
  $("question").textContent = m.question || "";
  const box = $("choices");
  box.replaceChildren();
  let group = null;
  for (const c of choices) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice" + (c.cost ? " costly" : "") + (c.target ? " target" : "");
    b.dataset.decision = c.decision;
    b.dataset.code = c.code;
    b.title = c.label;
    b.textContent = (c.head ? c.seat : c.label) + (c.target ? `  ★ ${c.target}` : "") +
      (c.cost ? `  ✗ costs a discard: ${c.cost}` : "");
    b.onclick = () => decide(c);
    if (c.head) {  // a wild that names a seat: its words once, then one button per seat
      if (!group || group.dataset.head !== c.head) {
        group = Object.assign(document.createElement("div"), { className: "seat-choice" });
        group.dataset.head = c.head;
        group.append(Object.assign(document.createElement("span"), { textContent: c.head }));
        box.appendChild(group);
      }
      group.appendChild(b);
    } else {
      group = null;
      box.appendChild(b);
    }
  }
  // the clock (SPEED): the server applies `late`; this only shows the time left
  clockEnd = m.deadline === null || m.deadline === undefined ? null : performance.now() + m.deadline * 1000;
  $("clock").hidden = clockEnd === null;
  tick();
  // the log, newest last, every line kept
  const log = $("log");
  const key = `${m.game}:${m.seat}`;
  if (key !== logKey) { log.replaceChildren(); shownLog = 0; logKey = key; }
  if (m.log.length < shownLog) { log.replaceChildren(); shownLog = 0; }
  for (const line of m.log.slice(shownLog)) {
    const li = document.createElement("li");
    li.textContent = line;
    if (/owes? a discard|out:|too long/.test(line)) li.className = "penalty";
    li.classList.add("new");
    log.appendChild(li);
    setTimeout(() => li.classList.remove("new"), 1500);
  }
  if (m.log.length > shownLog) log.scrollTop = log.scrollHeight;
  shownLog = m.log.length;
  // the end
  $("over").hidden = !m.over;
  if (m.over) {
    $("result").textContent = m.over.text;
    $("record-link").href = m.record || "#";
    $("replay-link").href = m.share || "#";
    $("share-url").value = m.share ? new URL(m.share, location.href).href : "";
  }
  const status = m.over ? "over" : choices.length ? "play" : mine.length ? "wait" : "watch";
  document.body.dataset.status = status;
  document.body.dataset.seq = m.seq;
  if (status === "play" && asked !== m.seq) {  // a new question: its choices just under the board
    asked = m.seq;
    requestAnimationFrame(showChoices);
  }
  $("status").textContent = m.over ? m.over.text : choices.length ? "your move" :
    `${seatName(m, actor)} to act`;
}

function showChoices() {
  // the board stays at the top (sticky); scroll only if the question is not already below it, on screen
  const top = $("board").getBoundingClientRect().bottom;
  const q = $("question").getBoundingClientRect();
  const box = $("choices").getBoundingClientRect();
  if (q.top < top || box.bottom > window.innerHeight) {
    window.scrollBy(0, Math.min(q.top - top - 4, Math.max(0, box.bottom - window.innerHeight + 8)));
  }
}

function tickAway() {
  const gone = (last && last.reconnect_timeout) || 0;
  for (const el of document.querySelectorAll(".presence.away[data-away]")) {
    const away = Number(el.dataset.away) + (performance.now() - receivedAt) / 1000;
    el.textContent = awayText(away, away >= gone);
  }
  for (const b of document.querySelectorAll("#free button[data-away]")) {
    const away = Number(b.dataset.away) + (performance.now() - receivedAt) / 1000;
    b.textContent = takeAway(b.dataset.seat, away);
  }
}
setInterval(tickAway, 1000);

function focusChoices(code) {
  for (const b of document.querySelectorAll("#choices button")) b.classList.toggle("focus", b.dataset.code === code);
}

function decide(choice) {
  problem("");
  const t = tokens();
  send({ type: "decide", seat: last.seat, token: t[last.seat], seq: last.seq, decision: choice.decision });
}

function tick() {
  if (clockEnd === null) return;
  const left = Math.max(0, (clockEnd - performance.now()) / 1000);
  $("clock").textContent = `SPEED: ${left.toFixed(1)} s to play (late costs a discard)`;
  $("clock").classList.toggle("urgent", left < 3);
}
setInterval(tick, 100);

let inbox = Promise.resolve();

async function receive(m) {
  if (m.type === "seated") { keep(m.tokens); return; }
  if (m.type === "refused") { problem(m.message); return; }
  if (m.type === "moved") { paused = true; notice(m.message, true); return; }
  if (m.type === "lost") { forget(m.seats); notice(m.message, false); return; }
  if (m.type === "table") { receivedAt = performance.now(); await loadDeck(m.game); render(m); }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onopen = () => { retry = 500; $("status").textContent = "connected"; hello(); };
  // One message at a time, in the order they came: a table message waits for its deck's images
  // (loadDeck), and the next must not render before it, or an older view (before a reload's hello
  // gave this device its seat back) would be drawn last.
  ws.onmessage = (ev) => { inbox = inbox.then(() => receive(JSON.parse(ev.data))).catch((e) => console.error(e)); };
  ws.onclose = (ev) => {
    document.body.dataset.status = "disconnected";
    $("status").textContent = ev.reason ? `disconnected: ${ev.reason}` : "connection lost: reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

$("hotseat").onclick = () => send({ type: "claim", seat: "all" });
$("play-here").onclick = () => { paused = false; notice(""); hello(); };
$("hints").onchange = (e) => send({ type: "hints", on: e.target.checked });
$("again").onclick = () => send({ type: "new_game" });
connect();
