// The replay page: steps through positions the engine worked out (generator/web/replay.py).
// It knows no rule. The steps come inside the page (a replay file) or, for a shared link,
// from the server that served this page, given the record the link's fragment carries.
"use strict";
const $ = (id) => document.getElementById(id);
let data = null, at = 0;

function chip(code) {
  const card = data.deck.cards[code];
  const el = document.createElement("figure");
  el.className = "card chip";
  el.dataset.code = code;
  if (!card) { el.textContent = code; return el; }
  if (card.number) {
    card.colours.forEach((c, i) => {
      if (i) el.append(" / ");
      const tag = document.createElement("b");
      tag.style.color = c.rgb;
      tag.textContent = `${c.shape} ${c.name}`;
      el.append(tag);
    });
    el.append(` ${card.value}`);
  } else {
    el.textContent = card.name;
  }
  el.title = `${code}${card.text ? ": " + card.text : ""}`;
  return el;
}

function show(k) {
  at = Math.max(0, Math.min(k, data.steps.length - 1));
  const p = data.steps[at].position;
  document.body.dataset.step = at;
  $("step").textContent = `step ${at} of ${data.steps.length - 1}`;
  $("slider").value = at;
  $("count").textContent = p.count;
  $("target").textContent = `to make ${data.deck.target}`;
  $("match").replaceChildren(p.match === "start" ? document.createTextNode("start: any card matches") : chip(p.match));
  $("direction").textContent = p.direction === 1 ? "clockwise ↻" : "counterclockwise ↺";
  $("turn").textContent = p.winner !== null ? `winner: ${data.options.teams ? "team" : "seat"} ${p.winner}` :
    `turn: seat ${p.turn}`;
  $("piles").textContent = `draw pile ${p.draw_size} · discard pile ${p.discards}`;
  $("line").textContent = data.steps[at].line;
  const hands = $("hands");
  hands.replaceChildren();
  p.hands.forEach((hand, seat) => {
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.className = [seat === p.turn && p.winner === null ? "acting" : "", p.out.includes(seat) ? "out" : ""].join(" ").trim();
    const who = data.bots[seat] ? ` (${data.bots[seat] === "human" ? "person" : data.bots[seat] + " bot"})` : "";
    const owes = p.owed.filter((s) => s === seat).length;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `seat ${seat}${who}: ${hand.length} card${hand.length === 1 ? "" : "s"}` +
      (p.out.includes(seat) ? ", out" : "") + (owes ? `, owes ${owes}` : "");
    const cards = document.createElement("div");
    cards.className = "cards hand";
    cards.dataset.codes = hand.join(" ");
    cards.replaceChildren(...hand.map(chip));
    li.append(name, cards);
    hands.appendChild(li);
  });
  $("inplay").replaceChildren(...p.in_play.map(chip));
  for (const [i, li] of [...$("log").children].entries()) li.classList.toggle("current", i === at);
  const cur = $("log").children[at];
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function start(d) {
  data = d;
  $("about").textContent = `seed ${d.seed} · ${d.players} players · ${d.edition_name}`;
  $("check").textContent = d.check;
  $("check").className = d.matches === false ? "bad" : "";
  $("slider").max = d.steps.length - 1;
  const log = $("log");
  log.replaceChildren(...d.steps.map((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.line;
    li.onclick = () => show(i);
    return li;
  }));
  log.start = 0;
  if (d.share && location.protocol !== "file:") {  // a file opened from disk has no server to share through
    $("share-box").hidden = false;
    $("share").href = `/replay#${d.share}`;
    $("share").dataset.fragment = d.share;
  }
  document.body.dataset.status = "ready";
  show(0);
}

async function fromFragment(fragment) {
  const b64 = fragment.replace(/^#?r=/, "").replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  // sent as it was inflated, never read here: a seed past 2**53 (simulate deals from 63-bit seeds)
  // is no exact JavaScript number; the server reads the compact form itself
  const compact = await new Response(stream).text();
  const r = await fetch("/api/replay", { method: "POST", body: compact });
  const d = await r.json();
  if (!r.ok) throw new Error(d.error || r.statusText);
  return d;
}

async function main() {
  const embedded = $("steps");
  try {
    if (embedded) start(JSON.parse(embedded.textContent));
    else if (location.hash.startsWith("#r=")) start(await fromFragment(location.hash));
    else throw new Error("this link carries no record (#r=...)");
  } catch (e) {
    $("problem").textContent = `cannot show this replay: ${e.message}`;
    $("problem").hidden = false;
    document.body.dataset.status = "error";
  }
}

$("first").onclick = () => show(0);
$("back").onclick = () => show(at - 1);
$("forward").onclick = () => show(at + 1);
$("last").onclick = () => show(data.steps.length - 1);
$("slider").oninput = (e) => show(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (!data) return;
  if (e.key === "ArrowRight") show(at + 1);
  if (e.key === "ArrowLeft") show(at - 1);
});
main();
