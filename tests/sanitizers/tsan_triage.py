#!/usr/bin/env python3
"""Sorts ThreadSanitizer reports into gRPC-internal ones and real findings.

Usage: tsan_triage.py REPORT_FILE...   (TSAN_OPTIONS log_path files)
Exit 0 when every report is gRPC-internal, 1 when any is not (each such
report is printed whole), 2 on usage errors.

Why: Debian's gRPC 1.51 is not built with TSan. Its completion queues,
combiners and closure schedulers hand each call object from one thread to
the next with synchronisation TSan cannot see, while part of gRPC's call
machinery is inline in /usr/include/grpcpp and so runs in our binaries
(compiled uninstrumented, tests/sanitizers/tsan_ignorelist.txt, but the
std::function, std::string and allocator code it calls is instrumented).
The result is reports about gRPC's own per-call state that no name-based
suppression can separate from ours: the same frames (CallbackWithSuccessTag::
Run, CallOnDone) also call our reactors and handlers.

The rule, applied to each of the two accesses of a race report: skip the
frames of the C++ standard library (headers under include/c++/) and of the
sanitizer runtime (interceptors such as memcpy, free, operator delete: no
source file, in the executable); the first frame left is the access's owner.
A report is gRPC-internal when both owners are Debian's gRPC (a function
defined under /usr/include/grpcpp or /usr/include/grpc, or code in a
libgrpc*/libgpr shared library). Every other report fails the run: any
access made by our code (a frame of core/, convert/, server/, client/,
tests/, the generated proto code, GoogleTest), a stack TSan could not
restore, and every report that is not a data race (lock-order inversion,
use after free outside gRPC, thread leak, ...).

One exception, a reactor deleting itself: gRPC's callback API calls a
reactor's OnDone once every operation on it is complete, and the reactor may
then free itself (server_callback.h). The free races, for TSan, with gRPC's
own code reading the reactor's base class earlier (ServerBidiReactor::Finish
loads its stream_ pointer before handing the status to the call, which then
completes on another thread): accepted when the free is operator delete
called directly by an OnDone and the other access is gRPC's (library). A
free after gRPC's access is a "heap-use-after-free" report, never accepted.
"""

import re
import sys

# "    #3 grpc::Foo::Bar(int) /usr/include/grpcpp/x.h:12:3 (exe+0x1234) (BuildId: ab)"
FRAME = re.compile(r"^\s+#\d+ (?P<body>.*?) \((?P<module>[^()]+)\+0x[0-9a-f]+\)( \(BuildId: [0-9a-f]+\))?$")
ACCESS = re.compile(r"^  (Previous )?(atomic )?(read|write|Read|Write|Atomic read|Atomic write)\b.* by (thread T\d+|main thread)")
# Debian's gRPC C++ headers: their functions are gRPC's code (compiled
# uninstrumented, like the library they belong to: tsan_ignorelist.txt).
GRPC_HEADERS = ("/usr/include/grpcpp/", "/usr/include/grpc/")
# Inline helpers that belong to whoever calls them.
TRANSPARENT_HEADERS = ("/include/c++/", "/usr/include/google/protobuf/", "/usr/include/absl/")
TRANSPARENT_MODULES = ("libstdc++.so", "libgcc_s.so", "libc.so", "libm.so")


def owner(frames):
  """'library', 'ours' or 'unknown' for one access's frames (innermost first)."""
  for body, module in frames:
    if module == "unrestored":
      return "unknown"
    file = body.rsplit(" ", 1)[-1] if " " in body else "<null>"
    if file.startswith(GRPC_HEADERS):
      return "library"
    if any(h in file for h in TRANSPARENT_HEADERS):
      continue
    if file == "<null>":
      if "." not in module or module.startswith(TRANSPARENT_MODULES):
        continue  # the executable's sanitizer runtime (interceptors), libstdc++
      return "library"  # a Debian shared library, built without TSan
    return "ours"
  # Nothing instrumented on the stack: uninstrumented library code made the
  # access (every line of ours is instrumented and would show).
  return "library" if frames else "unknown"


def reactor_self_delete(frames):
  """True when an access is operator delete called directly by an OnDone()."""
  if len(frames) < 2:
    return False
  freeing, caller = frames[0][0], frames[1][0]
  return freeing.startswith("operator delete(") and caller.split("(", 1)[0].endswith("::OnDone")


def split_reports(text):
  reports, current = [], None
  for line in text.splitlines():
    if line.startswith("WARNING: ThreadSanitizer:"):
      current = [line]
      reports.append(current)
    elif current is not None:
      if line.startswith("=================="):
        current = None
      else:
        current.append(line)
  return reports


def classify(report):
  """(is_grpc_internal, reason)."""
  kind = report[0].split("ThreadSanitizer:", 1)[1].strip()
  if not kind.startswith("data race"):
    return False, kind
  accesses, frames = [], None
  for line in report[1:]:
    if ACCESS.match(line):
      frames = []
      accesses.append(frames)
    elif frames is not None:
      m = FRAME.match(line)
      if m:
        frames.append((m.group("body"), m.group("module")))
      elif not line.strip() or "failed to restore the stack" in line:
        if "failed to restore" in line:
          frames.append(("<unrestored>", "unrestored"))
        frames = None
  owners = [owner(f) for f in accesses]
  if owners == ["library", "library"]:
    return True, "library/library"
  if len(accesses) == 2 and owners[1] == "library" and reactor_self_delete(accesses[0]):
    return True, "reactor deleted in OnDone/library"
  return False, "/".join(owners) or "no access stacks"


def main(paths):
  if not paths:
    print(__doc__.splitlines()[2], file=sys.stderr)
    return 2
  internal, findings = 0, []
  for path in paths:
    with open(path, errors="replace") as f:
      for report in split_reports(f.read()):
        ok, reason = classify(report)
        if ok:
          internal += 1
        else:
          findings.append((path, reason, report))
  for path, reason, report in findings:
    print(f"tsan_triage: FINDING ({reason}) in {path}:")
    print("\n".join(report))
  print(f"tsan_triage: {internal} library-internal report(s) accepted, {len(findings)} finding(s)")
  return 1 if findings else 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
