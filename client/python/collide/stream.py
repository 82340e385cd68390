"""The tick loop on one stream (WorldService.Tick): frames and batches sent
in order, each message answered in order by one TickAnswer.

    with world.stream() as s:                       # a generator feeds gRPC, an iterator reads
        for tick in range(1, 100):
            a = s.tick(frame=collide.Frame(tick, bodies), shots=shots, moves=moves)
            a.raise_for_error()
            print(a.shots[0].code, a.moves[0].code)

`tick()` sends one message and waits for its answer (lock-step); `send()`
and `receive()` (or iterating the stream) pipeline several. With asyncio:

    async with world.stream_async() as s:            # grpc.aio
        a = await s.tick(frame=..., shots=...)

A message's parts run in this order: frame, query (ray_casts, shape_casts,
overlaps), packed rays, shots, packed shots, moves, projectiles, melee,
visibility (visibility={"tick_seconds": ..., "latency": ...}, the keywords
World.get_visibility takes; answer.visibility, VisibilitySets), bodies
(bodies={"at": ..., "body_ids": [...]}, as World.get_bodies takes them;
answer.bodies); so a batch sees the frame sent with it. An error ends only
its message (answer.error, a CollideError: the unary call's code, field
paths under the part's name, "shots.shots[2].direction", and ErrorInfo
reason); the parts before it ran, those after it did not. A message answered
WORLD_NOT_FOUND is re-sent once after the world was re-created
(World.recover: the handle's creation request and the state after the latest
frame it saw applied, on this stream or by unary calls); its answer then
stands in the original's place, so answers stay in send order
(answer.recreated says so). With several messages in flight, the world is
re-created only once every one of them is answered, and messages sent
meanwhile (also from on_history_lost) are held, not blocked; then each
message that found the world missing goes again, in order, before the held
ones. So none runs on a re-created world before it was given its state
(else, depending on the server's speed, a shot there would answer
UNKNOWN_SHOOTER and the frame restoring it FAILED_PRECONDITION). close()
reads every answer, the held messages' too, before it half-closes.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import queue
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import grpc

from collide.errors import CollideError
from collide.v1 import world_pb2
from collide.world_inputs import At, frame_to_proto, visibility_to_proto
from collide.world_results import (
    Bodies,
    MeleeVerdict,
    MoveVerdict,
    PackedWorldRayHits,
    ProjectileVerdict,
    QueryResults,
    ShotVerdict,
    VisibilitySets,
)

if TYPE_CHECKING:
    from collide.world import World


@dataclass(frozen=True)
class TickAnswer:
    """One message's answer: a part's field is None when the message had no
    such part, or it did not run (an error before it)."""

    sequence: int
    error: Optional[CollideError]
    oldest_tick: Optional[int]  # the frame was applied; the oldest tick kept after it
    query: Optional[QueryResults]
    rays_packed: Optional[PackedWorldRayHits]
    shots: Optional[List[ShotVerdict]]
    shots_packed: Optional[List[ShotVerdict]]
    moves: Optional[List[MoveVerdict]]
    # The world was re-created before this answer (its history lost).
    recreated: bool = False
    bodies: Optional[Bodies] = None  # the part `bodies` (after the others)
    projectiles: Optional[List[ProjectileVerdict]] = None
    melee: Optional[List[MeleeVerdict]] = None
    visibility: Optional[VisibilitySets] = None

    def raise_for_error(self) -> "TickAnswer":
        if self.error is not None:
            raise self.error
        return self

    @classmethod
    def from_proto(cls, r: world_pb2.TickResponse, sequence: int, recreated: bool) -> "TickAnswer":
        error = None
        if r.HasField("status") and r.status.code != 0:
            error = CollideError.from_status(_code(r.status.code), r.status.message, r.status)
        return cls(sequence, error, int(r.frame.oldest_tick) if r.HasField("frame") else None,
                   QueryResults.from_proto(r.query) if r.HasField("query") else None,
                   PackedWorldRayHits.from_proto(r.rays_packed) if r.HasField("rays_packed") else None,
                   [ShotVerdict.from_proto(v) for v in r.shots.verdicts] if r.HasField("shots") else None,
                   [ShotVerdict.from_proto(v) for v in r.shots_packed.verdicts] if r.HasField("shots_packed")
                   else None,
                   [MoveVerdict.from_proto(v) for v in r.moves.verdicts] if r.HasField("moves") else None,
                   recreated, Bodies.from_proto(r.bodies) if r.HasField("bodies") else None,
                   [ProjectileVerdict.from_proto(v) for v in r.projectiles.verdicts]
                   if r.HasField("projectiles") else None,
                   [MeleeVerdict.from_proto(v) for v in r.melee.verdicts] if r.HasField("melee") else None,
                   VisibilitySets.from_proto(r.visibility) if r.HasField("visibility") else None)


_CODES = {c.value[0]: c for c in grpc.StatusCode}


def _code(value: int) -> grpc.StatusCode:
    return _CODES.get(value, grpc.StatusCode.UNKNOWN)


@dataclass
class _Recovery:
    """A restoration of a lost world under way: the messages that found it
    missing (original sequence, answer, losses when sent), those sent since
    (held), and how the re-creation went."""

    lost: List[Tuple[int, TickAnswer, int]] = field(default_factory=list)
    held: List[world_pb2.TickRequest] = field(default_factory=list)
    started: bool = False
    restored: bool = False
    failure: Optional[CollideError] = None


class _Sequencer:
    """What both streams share: building messages, numbering them, keeping
    them until answered, re-sending those the world lost, and the order of
    the answers. No I/O but restore(); not thread-safe (TickStream calls
    number, answered and release under its lock)."""

    def __init__(self, world: "World", budget_ms: float):
        self.world = world
        self.budget_ms = budget_ms
        self._next = 1
        # Original sequence -> (request as last sent, world losses seen when sent).
        self._sent: Dict[int, Tuple[world_pb2.TickRequest, int]] = {}
        self._wire: Dict[int, int] = {}  # sequence on the wire -> original sequence
        self._order: Deque[int] = collections.deque()
        self._ready: Dict[int, TickAnswer] = {}
        self._resent: Set[int] = set()  # originals sent again after a re-creation
        self._recovery: Optional[_Recovery] = None

    def build(self, frame: Any = None, *, ray_casts: Iterable[Any] = (), shape_casts: Iterable[Any] = (),
              overlaps: Iterable[Any] = (), rays: Optional[Iterable[float]] = None, rays_at: At = None,
              rays_mask: int = 0, rays_ignore: Sequence[int] = (), shots: Iterable[Any] = (),
              shots_packed: Optional[Dict[str, Any]] = None, moves: Iterable[Any] = (),
              projectiles: Iterable[Any] = (), melee: Iterable[Any] = (),
              all_or_nothing: bool = False, budget_ms: Optional[float] = None,
              bodies: Optional[Dict[str, Any]] = None,
              visibility: Optional[Dict[str, Any]] = None) -> world_pb2.TickRequest:
        w = self.world
        request = world_pb2.TickRequest(budget_ms=self.budget_ms if budget_ms is None else budget_ms)
        if frame is not None:
            request.frame.CopyFrom(frame_to_proto(frame))
        query = w.query_request(ray_casts, shape_casts, overlaps)
        if len(query.ray_casts) or len(query.shape_casts) or len(query.overlaps):
            request.query.CopyFrom(query)
        if rays is not None:
            request.rays_packed.CopyFrom(w.rays_packed_request(rays, at=rays_at, mask=rays_mask, ignore=rays_ignore))
        shots_request = w.shots_request(shots, all_or_nothing=all_or_nothing)
        if len(shots_request.shots):
            request.shots.CopyFrom(shots_request)
        if shots_packed is not None:
            request.shots_packed.CopyFrom(w.shots_packed_request(**shots_packed))
        moves_request = w.moves_request(moves, all_or_nothing=all_or_nothing)
        if len(moves_request.moves):
            request.moves.CopyFrom(moves_request)
        if bodies is not None:  # {"at": ..., "body_ids": [...]}, as World.get_bodies takes them
            request.bodies.CopyFrom(w.bodies_request(bodies.get("at"), bodies.get("body_ids", ())))
        projectiles_request = w.projectiles_request(projectiles, all_or_nothing=all_or_nothing)
        if len(projectiles_request.projectiles):
            request.projectiles.CopyFrom(projectiles_request)
        melee_request = w.melee_request(melee, all_or_nothing=all_or_nothing)
        if len(melee_request.melee):
            request.melee.CopyFrom(melee_request)
        if visibility is not None:  # {} asks for every observer's set, as get_visibility() does
            request.visibility.CopyFrom(visibility_to_proto(w.world_id, **visibility))
        return request

    def number(self, request: world_pb2.TickRequest) -> bool:
        """Gives `request` the next sequence and keeps it until answered;
        True to write it now, False when a restoration holds it (release()
        returns it)."""
        self._on_wire(self._next, request)
        self._sent[request.sequence] = (request, self.world.history_lost)
        self._order.append(request.sequence)
        if self._recovery is not None:
            del self._wire[request.sequence]
            self._recovery.held.append(request)
            return False
        return True

    def pending(self) -> int:
        return len(self._order)

    def answered(self, response: world_pb2.TickResponse) -> bool:
        """Takes one response; True when the world must now be restored
        (restore(), then write what release() returns): a message found it
        missing and every message in flight is answered."""
        original = self._wire.pop(response.sequence, None)
        if original is None:
            raise CollideError(grpc.StatusCode.INTERNAL, f"an answer to an unknown sequence {response.sequence}", [])
        request, losses = self._sent[original]
        answer = TickAnswer.from_proto(response, original, original in self._resent)
        if answer.oldest_tick is not None:
            self.world.frame_applied(request.frame)
        if answer.error is not None and original not in self._resent and self.world.recreates(answer.error):
            if self._recovery is None:
                self._recovery = _Recovery()
            self._recovery.lost.append((original, answer, losses))
        else:
            del self._sent[original]
            self._ready[original] = answer
        # Nothing is written while a restoration waits: no message on the
        # wire means every one in flight when the world was found missing
        # is answered, so none can run on the re-created world before it
        # was given its state.
        if self._recovery is None or self._recovery.started or self._wire:
            return False
        self._recovery.started = True
        return True

    def restore(self) -> None:
        """Re-creates the world (blocking unary calls; the world's
        on_history_lost may send(), those sends are held)."""
        r = self._recovery
        assert r is not None and r.started
        try:
            # Each message sent before a re-creation that another call already
            # made (history_lost moved on): re-send only.
            if max(losses for _, _, losses in r.lost) == self.world.history_lost:
                cause = r.lost[0][1].error
                assert cause is not None
                r.restored = self.world.recover(cause)
            else:
                r.restored = True
        except CollideError as e:
            r.failure = e

    def release(self) -> List[world_pb2.TickRequest]:
        """Ends a restoration: the messages to write, in order (those that
        found the world missing, re-numbered, then those held); a lost one
        not sent again takes its answer (its error, or the restoration's)."""
        r = self._recovery
        assert r is not None
        self._recovery = None
        out = []
        for original, answer, _ in r.lost:
            if not r.restored:
                del self._sent[original]
                self._ready[original] = answer if r.failure is None else dataclasses.replace(answer,
                                                                                             error=r.failure)
                continue
            resent = world_pb2.TickRequest()
            resent.CopyFrom(self._sent[original][0])
            self._sent[original] = (resent, self.world.history_lost)
            self._resent.add(original)
            out.append(self._on_wire(original, resent))
        # Numbered again too, so that sequences on the wire keep rising.
        out.extend(self._on_wire(request.sequence, request) for request in r.held)
        return out

    def _on_wire(self, original: int, request: world_pb2.TickRequest) -> world_pb2.TickRequest:
        """Gives `request` (message `original`) the next sequence on the wire."""
        request.sequence = self._next
        self._next += 1
        self._wire[request.sequence] = original
        return request

    def next_answer(self) -> Optional[TickAnswer]:
        """The earliest message's answer once it is in, else None (read
        more); ValueError when no message waits for an answer."""
        if self._order and self._order[0] in self._ready:
            original = self._order.popleft()
            self._resent.discard(original)
            return self._ready.pop(original)
        if not self._order:
            raise ValueError("no message is waiting for an answer")
        return None


_DONE = object()


class TickStream:
    """A Tick stream on one world (World.stream()); not for concurrent use
    from several threads except send() beside one receiving thread."""

    def __init__(self, world: "World", budget_ms: float = 0.0, timeout: Optional[float] = None):
        self._seq = _Sequencer(world, budget_ms)
        self._outbox: "queue.Queue[Any]" = queue.Queue()
        self._lock = threading.Lock()
        self._closed = False
        self._call = world._client._worlds.Tick(self._requests(), metadata=world._client.auth_metadata + world.metadata,
                                                timeout=timeout)

    def _requests(self) -> Iterator[world_pb2.TickRequest]:
        while True:
            item = self._outbox.get()
            if item is _DONE:
                return
            yield item

    def send(self, frame: Any = None, **parts: Any) -> int:
        """Sends one message (see the module comment for the parts and
        their keywords); returns its sequence."""
        with self._lock:
            if self._closed:
                raise ValueError("the stream is closed")
            request = self._seq.build(frame, **parts)
            write = self._seq.number(request)
            sequence = request.sequence  # a held message is numbered again on release
            if write:
                self._outbox.put(request)
        return sequence

    def receive(self) -> TickAnswer:
        """The next answer, in send order (blocks)."""
        while True:
            answer = self._seq.next_answer()
            if answer is not None:
                return answer
            try:
                response = next(self._call)
            except StopIteration:
                raise CollideError(grpc.StatusCode.UNAVAILABLE, "the stream ended with messages unanswered", [])
            except grpc.RpcError as e:
                raise CollideError.from_rpc_error(e) from None
            with self._lock:
                restore = self._seq.answered(response)
            if restore:
                try:
                    self._seq.restore()  # unlocked: on_history_lost may send()
                finally:
                    with self._lock:  # before any later send()
                        for request in self._seq.release():
                            self._outbox.put(request)

    def tick(self, frame: Any = None, **parts: Any) -> TickAnswer:
        """send() then receive() its answer (nothing else may be pending)."""
        if self._seq.pending():
            raise ValueError("tick() with answers pending: receive() them first")
        self.send(frame, **parts)
        return self.receive()

    def __iter__(self) -> Iterator[TickAnswer]:
        """The answers to every message sent, until none is pending."""
        while self._seq.pending():
            yield self.receive()

    def close(self) -> None:
        """Half-closes the stream after the answers pending are read."""
        for _ in self:
            pass
        with self._lock:
            if not self._closed:
                self._closed = True
                self._outbox.put(_DONE)
        try:
            for _ in self._call:
                pass
        except grpc.RpcError as e:
            raise CollideError.from_rpc_error(e) from None

    def cancel(self) -> None:
        """Ends the stream at once (answers pending are lost)."""
        self._closed = True
        self._call.cancel()
        self._outbox.put(_DONE)

    def __enter__(self) -> "TickStream":
        return self

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.cancel()


class AsyncTickStream:
    """The Tick stream on grpc.aio (World.stream_async()), for one task."""

    def __init__(self, world: "World", channel: grpc.aio.Channel, budget_ms: float = 0.0,
                 timeout: Optional[float] = None, own_channel: bool = False):
        from collide.v1 import world_pb2_grpc

        self._seq = _Sequencer(world, budget_ms)
        self._channel = channel
        self._own_channel = own_channel
        self._call = world_pb2_grpc.WorldServiceStub(channel).Tick(
            metadata=world._client.auth_metadata + world.metadata, timeout=timeout)

    async def send(self, frame: Any = None, **parts: Any) -> int:
        request = self._seq.build(frame, **parts)
        write = self._seq.number(request)
        sequence = request.sequence  # a held message is numbered again on release
        if write:
            await self._call.write(request)
        return sequence

    async def receive(self) -> TickAnswer:
        while True:
            answer = self._seq.next_answer()
            if answer is not None:
                return answer
            try:
                response = await self._call.read()
            except grpc.RpcError as e:
                raise CollideError.from_rpc_error(e) from None
            if response is grpc.aio.EOF:
                raise CollideError(grpc.StatusCode.UNAVAILABLE, "the stream ended with messages unanswered", [])
            if self._seq.answered(response):
                try:
                    # A re-creation runs blocking unary calls: off the event loop.
                    await asyncio.get_running_loop().run_in_executor(None, self._seq.restore)
                finally:
                    for request in self._seq.release():
                        await self._call.write(request)

    async def tick(self, frame: Any = None, **parts: Any) -> TickAnswer:
        if self._seq.pending():
            raise ValueError("tick() with answers pending: receive() them first")
        await self.send(frame, **parts)
        return await self.receive()

    def __aiter__(self) -> "AsyncTickStream":
        return self

    async def __anext__(self) -> TickAnswer:
        if not self._seq.pending():
            raise StopAsyncIteration
        return await self.receive()

    async def aclose(self) -> None:
        """Reads the answers pending, half-closes, waits for the stream's end."""
        try:
            while self._seq.pending():
                await self.receive()
            await self._call.done_writing()
            while await self._call.read() is not grpc.aio.EOF:
                pass
            code = await self._call.code()
            if code != grpc.StatusCode.OK:
                raise CollideError(code, await self._call.details() or "", [])
        except grpc.RpcError as e:
            raise CollideError.from_rpc_error(e) from None
        finally:
            if self._own_channel:
                await self._channel.close()

    async def __aenter__(self) -> "AsyncTickStream":
        return self

    async def __aexit__(self, exc_type: Any, *_: Any) -> None:
        if exc_type is None:
            await self.aclose()
        else:
            self._call.cancel()
            if self._own_channel:
                await self._channel.close()
