// The page of `collide world view`: fetches the scene (/scene.json, see
// viewer_scene.proto), draws the level, the bodies of the tick the timeline
// shows, the shots judged then as rays and the moves as their sweeps, each
// coloured by verdict. Clicking a verdict selects it: its claimed body is
// drawn rewound (the verdict's colour) beside its latest pose (blue), and
// the panel shows the request and verdict with its explanation; a selected
// move's body is drawn at its `from` (blue) and where it was allowed. The URL's
// hash preselects one: #call=10&shot=1 or #call=10&move=0.
import * as THREE from 'three';
import {OrbitControls} from 'three/addons/controls/OrbitControls.js';
import {
  bodyObject, codeColour, codeName, kLatestColour, levelObject, lineObject, material, vec,
} from './scene_objects.js';

const scene = await (await fetch('scene.json')).json();
const ticks = scene.ticks ?? [];
const verdicts = [
  ...(scene.shots ?? []).map((s) => ({kind: 'shot', entry: s, code: codeName('shot', s.verdict)})),
  ...(scene.moves ?? []).map((m) => ({kind: 'move', entry: m, code: codeName('move', m.verdict)})),
].sort((a, b) => (a.entry.call ?? 0) - (b.entry.call ?? 0) ||
                 (a.kind === b.kind ? (a.entry.item ?? 0) - (b.entry.item ?? 0) : a.kind === 'shot' ? -1 : 1));

// The timeline's index of the frame a verdict was judged in.
function tickIndexOf(verdict) {
  const latest = Number(verdict.entry.latestTick ?? 0);
  let index = 0;
  ticks.forEach((t, i) => { if (Number(t.tick ?? 0) <= latest) index = i; });
  return index;
}

// --- three.js setup: Z up, lit, drawn on demand.
const view = document.getElementById('view');
const renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
renderer.setPixelRatio(window.devicePixelRatio);
view.appendChild(renderer.domElement);
const world = new THREE.Scene();
world.background = new THREE.Color(0x26292c);
world.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(1, -2, 3);
world.add(sun);
// The level is cut above the bodies (a roof hides them from above) unless
// the "roof" box is ticked: at the first frame's highest part plus the
// tallest body's height.
const cut = new THREE.Plane(new THREE.Vector3(0, 0, -1), Infinity);
let tallest = 0;
{
  let top = -Infinity;
  for (const body of ticks[0]?.bodies ?? []) {
    const box = new THREE.Box3().setFromObject(bodyObject(body, null));
    top = Math.max(top, box.max.z);
    tallest = Math.max(tallest, box.max.z - box.min.z);
  }
  if (top > -Infinity) cut.constant = top + tallest;
}
renderer.localClippingEnabled = true;
const level = levelObject(scene.level ?? {}, [cut]);
world.add(level);
const dynamic = new THREE.Group();
world.add(dynamic);

const camera = new THREE.PerspectiveCamera(50, 1, 0.05, 10000);
camera.up.set(0, 0, 1);
const controls = new OrbitControls(camera, renderer.domElement);
{
  // Frame the level and the first tick's bodies, seen from the south-west, above.
  const bounds = new THREE.Box3().setFromObject(level);
  bounds.max.z = Math.min(bounds.max.z, cut.constant);
  if (ticks.length) bounds.expandByObject(bodyObject({parts: ticks[0].bodies?.flatMap((b) => b.parts ?? [])}));
  const centre = bounds.isEmpty() ? new THREE.Vector3() : bounds.getCenter(new THREE.Vector3());
  const radius = bounds.isEmpty() ? 10 : bounds.getSize(new THREE.Vector3()).length() / 2;
  camera.position.copy(centre).add(new THREE.Vector3(-0.5, -1.0, 0.8).multiplyScalar(radius));
  controls.target.copy(centre);
  controls.update();
}
controls.addEventListener('change', render);

// Looks at `point` from the current direction, ten body heights away.
function focus(point) {
  const offset = camera.position.clone().sub(controls.target).setLength(Math.max(10 * tallest, 1));
  controls.target.copy(point);
  camera.position.copy(point).add(offset);
  controls.update();
}

function render() {
  const width = view.clientWidth, height = view.clientHeight;
  renderer.setSize(width, height, false);
  camera.aspect = width / Math.max(height, 1);
  camera.updateProjectionMatrix();
  renderer.render(world, camera);
}
window.addEventListener('resize', render);

// --- what the timeline and the selection show.
const timeline = document.getElementById('timeline');
const bodyMaterial = material(0xe6c84c);
let selected = null;

// A copy of `body` carried by translation so that its origin is at `to`, as
// moves are judged.
function bodyAt(body, to, drawnWith) {
  const object = bodyObject(body, drawnWith);
  object.position.subVectors(to, vec(body.pose?.position));
  return object;
}

function drawVerdict(verdict, isSelected, bodies) {
  const colour = codeColour(verdict.code);
  const e = verdict.entry;
  if (verdict.kind === 'shot') {
    dynamic.add(lineObject([vec(e.shot?.origin), vec(e.rayEnd)], colour));
    if (!isSelected) return;
    const explained = e.verdict?.explanation ?? {};
    const rewound = explained.claimedRewound ?? e.claimedRewound, latest = explained.claimedLatest ?? e.claimedLatest;
    if (rewound) dynamic.add(bodyObject(rewound, material(colour)));
    if (latest) dynamic.add(bodyObject(latest, material(kLatestColour, 0.45)));
    return;
  }
  // Sweeps run at the body origin, often on the floor: drawn over everything.
  for (const sweep of e.sweeps ?? []) {
    const line = lineObject([vec(sweep.from), vec(sweep.to)], colour);
    line.material.depthTest = false;
    line.renderOrder = 1;
    dynamic.add(line);
  }
  const stop = new THREE.Mesh(new THREE.SphereGeometry(isSelected ? 0.2 : 0.1), material(colour));
  stop.position.copy(vec(e.verdict?.allowedPosition));
  dynamic.add(stop);
  const body = bodies.find((b) => b.id === e.move?.bodyId);
  if (!isSelected || !body) return;
  dynamic.add(bodyAt(body, vec(e.from), material(kLatestColour, 0.45)));
  dynamic.add(bodyAt(body, vec(e.verdict?.allowedPosition), material(colour)));
}

function show() {
  dynamic.clear();
  const tick = ticks[Number(timeline.value)];
  document.getElementById('tick').textContent = tick ? `tick ${tick.tick}` : 'no frames';
  // While a shot is selected, its claimed body is drawn rewound and latest instead.
  const claimed = selected?.kind === 'shot' ? selected.entry.shot?.claimed?.bodyId : undefined;
  const bodies = tick?.bodies ?? [];
  for (const body of bodies) {
    if (body.id !== claimed) dynamic.add(bodyObject(body, bodyMaterial));
  }
  for (const verdict of verdicts) {
    if (verdict.entry.latestTick === tick?.tick) drawVerdict(verdict, verdict === selected, bodies);
  }
  render();
}

function explain(verdict) {
  const e = verdict.entry;
  const lines = [`${verdict.kind} ${e.item ?? 0} of call ${e.call ?? 0}: ${verdict.code}`];
  if (verdict.kind === 'move' && e.verdict?.explanation?.reason) lines.push(e.verdict.explanation.reason);
  if (verdict.kind === 'shot' && e.verdict?.time) {
    const t = e.verdict.time;
    lines.push(`rewound to tick ${t.at?.tick ?? 0} + ${t.at?.fraction ?? 0}${t.clamped ? ' (clamped)' : ''}, ` +
               `judged at tick ${e.latestTick}`);
  }
  if (e.explanationReplayed) lines.push('explanation: the replay\'s (the recording has none)');
  if (e.replayDiffers) lines.push('the replay judged this call differently: the explanation may not fit');
  lines.push('', JSON.stringify({request: e.shot ?? e.move, verdict: e.verdict}, null, 1));
  return lines.join('\n');
}

function select(verdict, item) {
  selected = verdict;
  // Walls between the camera and the dispute are seen through once a verdict is selected.
  level.traverse((o) => {
    if (!o.material) return;
    Object.assign(o.material, {transparent: true, opacity: 0.35, depthWrite: false});
  });
  for (const li of document.querySelectorAll('.verdict')) li.classList.toggle('selected', li === item);
  document.getElementById('explanation').textContent = explain(verdict);
  item.scrollIntoView({block: 'center'});  // once the panel has its size
  timeline.value = tickIndexOf(verdict);
  // The dispute's place: the rewound target, else where the ray ends, or where the move was stopped.
  const e = verdict.entry;
  const rewound = e.verdict?.explanation?.claimedRewound ?? e.claimedRewound;
  focus(vec(verdict.kind === 'move' ? e.verdict?.allowedPosition : rewound ? rewound.pose?.position : e.rayEnd));
  show();
}

// --- the DOM: title, verdict list, timeline.
document.getElementById('title').textContent =
    `${scene.worldId ?? ''}: ${scene.calls ?? 0} calls, ${ticks.length} frames` + (scene.stopped ? ` (${scene.stopped})` : '');
const list = document.getElementById('verdicts');
for (const verdict of verdicts) {
  const li = document.createElement('li');
  li.className = 'verdict';
  li.dataset.kind = verdict.kind;
  li.dataset.code = verdict.code;
  li.dataset.call = verdict.entry.call ?? 0;
  li.dataset.item = verdict.entry.item ?? 0;
  li.style.setProperty('--colour', `#${codeColour(verdict.code).toString(16).padStart(6, '0')}`);
  li.textContent = `tick ${verdict.entry.latestTick ?? 0}  ${verdict.kind} ${li.dataset.item}  ${verdict.code}`;
  li.addEventListener('click', () => select(verdict, li));
  list.appendChild(li);
}
timeline.max = Math.max(ticks.length - 1, 0);
timeline.value = timeline.max;
timeline.addEventListener('input', show);
const roof = document.getElementById('roof');
roof.addEventListener('change', () => {
  level.traverse((o) => { if (o.material) o.material.clippingPlanes = roof.checked ? [] : [cut]; });
  render();
});

const wanted = new URLSearchParams(location.hash.slice(1));
const preselect = [...list.children].find((li) => li.dataset.call === wanted.get('call') &&
                                                  wanted.get(li.dataset.kind) === li.dataset.item);
if (preselect) preselect.click(); else show();
document.body.dataset.ready = 'true';
