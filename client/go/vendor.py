#!/usr/bin/python3
"""Writes a Go module's vendor/ directory from Debian's packaged Go sources,
offline: what `go mod vendor` would write, without a module proxy.

    client/go/vendor.py [MODULE_DIR] [--gocode DIR] [--check]

MODULE_DIR (default: this folder, the module github.com/collide-dev/collide/
client/go) holds a go.mod whose `require` lines name the modules the build
uses and whose `replace` lines, if any, point at local directories (a
consumer's `replace github.com/collide-dev/collide/client/go => ../go`); a
module the build needs that go.mod lacks but a replaced module's go.mod
requires is added to go.mod at that version (as `go mod tidy` adds the
requirements of a dependency). The
packages the module's packages and tests import are found with `go list -deps
-test` in GOPATH mode over the module, its local replacements and --gocode
(default /usr/share/gocode/src, where golang-google-grpc-dev and the other
golang-*-dev packages install their sources); each is copied (without its
tests) under vendor/ with its module's licence files, and vendor/modules.txt
lists them by module, marking every required module explicit, as
`go build -mod=vendor` checks. A package from no required module is an
error naming it. Then `GOFLAGS=-mod=vendor GOPROXY=off go build ./...` builds
in module mode with nothing downloaded.

--check compares instead of writing: exit 1 when vendor/ differs.
Run by scripts/install-deps.sh for client/go and by the CMake target
collide_go before every build of the Go client.
"""

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LICENCE_NAMES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "PATENTS", "AUTHORS", "CONTRIBUTORS")


def go_env() -> dict:
    env = dict(os.environ)
    env.update(GOFLAGS="", GOPROXY="off", GONOSUMDB="", GOWORK="off")
    return env


def mod_edit_json(module_dir: Path) -> dict:
    out = subprocess.run(["go", "mod", "edit", "-json"], cwd=module_dir, env=go_env(), check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def is_local(path: str) -> bool:
    return path.startswith(("./", "../", "/")) or path in (".", "..")


def main_packages(module_dir: Path, module_path: str) -> list:
    """Import paths of the module's own packages (directories with .go files,
    outside vendor/, testdata/ and _ or . directories)."""
    out = []
    for d, subdirs, files in os.walk(module_dir):
        rel = Path(d).relative_to(module_dir)
        subdirs[:] = sorted(s for s in subdirs if s not in ("vendor", "testdata") and s[0] not in "._")
        if any(f.endswith(".go") for f in files):
            out.append(module_path if rel == Path(".") else f"{module_path}/{rel.as_posix()}")
    return out


def module_of(package: str, modules: list) -> str:
    best = ""
    for m in modules:
        if (package == m or package.startswith(m + "/")) and len(m) > len(best):
            best = m
    return best


def go_version_of(directory: Path) -> str:
    """The `go` line of the go.mod at or above a package directory."""
    for d in [directory, *directory.parents]:
        mod = d / "go.mod"
        if mod.is_file():
            for line in mod.read_text().splitlines():
                if line.startswith("go "):
                    return line.split()[1]
            return ""
    return ""


def module_root(package_dir: Path, package: str, module: str) -> Path:
    depth = package[len(module):].count("/")
    return package_dir.parents[depth - 1] if depth else package_dir


def vendor(module_dir: Path, gocode: Path, dest: Path) -> None:
    info = mod_edit_json(module_dir)
    module_path = info["Module"]["Path"]
    requires = {r["Path"]: r["Version"] for r in info.get("Require") or []}
    replaces = {}
    for r in info.get("Replace") or []:
        old, new = r["Old"], r["New"]
        if "Version" in new or not is_local(new["Path"]):
            sys.exit(f"vendor.py: {old['Path']}: only replacements by local directories can be vendored offline")
        replaces[old["Path"]] = (old.get("Version", ""), new["Path"])

    with tempfile.TemporaryDirectory(prefix="collide-vendor-") as tmp:
        src = Path(tmp) / "src"
        links = {module_path: module_dir, **{p: (module_dir / new).resolve() for p, (_, new) in replaces.items()}}
        for path, target in links.items():
            # A folder of links to the module's entries but vendor/ (GOPATH
            # mode would read an old vendor/ instead of Debian's sources).
            shadow = src / path
            shadow.mkdir(parents=True, exist_ok=True)
            for entry in target.iterdir():
                if entry.name != "vendor" and not entry.name.startswith(".vendor-"):
                    (shadow / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
        env = go_env()
        env.update(GO111MODULE="off", GOPATH=f"{tmp}{os.pathsep}{gocode.parent}", GOCACHE=str(Path(tmp) / "cache"))
        listing = subprocess.run(
            ["go", "list", "-deps", "-test", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{.Standard}}\t{{.Error}}",
             *main_packages(module_dir, module_path)],
            cwd=src / module_path, env=env, capture_output=True, text=True)
        if listing.returncode != 0:
            sys.exit(f"vendor.py: go list failed:\n{listing.stderr}")
        packages = {}
        for line in listing.stdout.splitlines():
            path, directory, standard, error = line.split("\t")
            if " " in path or path.endswith(".test") or standard == "true":
                continue  # test variants, test mains, the standard library
            if path == module_path or path.startswith(module_path + "/"):
                continue
            if error != "<nil>":
                sys.exit(f"vendor.py: {path}: {error}")
            packages[path] = Path(directory)

        # A package of a module go.mod does not require, but which a locally
        # replaced module requires (the collide module's go.mod, for a
        # consumer): its requirement is added to go.mod, as `go mod tidy`
        # would.
        inherited = {}
        for _, new in replaces.values():
            for r in mod_edit_json((module_dir / new).resolve()).get("Require") or []:
                inherited.setdefault(r["Path"], r["Version"])
        added = {}
        for path in sorted(packages):
            if not module_of(path, list(requires)):
                module = module_of(path, list(inherited))
                if not module:
                    sys.exit(f"vendor.py: {path} ({packages[path]}) is in no module that {module_dir}/go.mod "
                             "or its replacements' go.mod require")
                added[module] = requires[module] = inherited[module]
        if added:
            subprocess.run(["go", "mod", "edit", *(f"-require={m}@{v}" for m, v in sorted(added.items()))],
                           cwd=module_dir, env=go_env(), check=True)
            print(f"vendor.py: added to {module_dir}/go.mod: " + ", ".join(f"{m} {v}" for m, v in sorted(added.items())))
        by_module = {m: [] for m in requires}
        for path in sorted(packages):
            by_module[module_of(path, list(requires))].append(path)

        dest.mkdir(parents=True)
        lines = []
        for module in sorted(by_module):
            header = f"# {module} {requires[module]}"
            if module in replaces:
                header += f" => {replaces[module][1]}"
            lines.append(header)
            root = None
            for path in by_module[module]:
                directory = packages[path].resolve()
                root = module_root(directory, path, module)
                target = dest / path
                target.mkdir(parents=True, exist_ok=True)
                for f in sorted(directory.iterdir()):
                    if f.is_file() and not f.name.endswith("_test.go") and f.name[0] not in "._":
                        shutil.copy2(f, target / f.name)
            if root is None and module in replaces:
                root = (module_dir / replaces[module][1]).resolve()
            if root is None:
                candidate = gocode / module
                root = candidate if candidate.is_dir() else None
            go_version = go_version_of(root) if root else ""
            lines.append("## explicit" + (f"; go {go_version}" if go_version else ""))
            lines.extend(by_module[module])
            if root and by_module[module]:
                for f in sorted(root.iterdir()):
                    if f.is_file() and f.name.split(".")[0].upper() in LICENCE_NAMES:
                        (dest / module).mkdir(parents=True, exist_ok=True)
                        shutil.copy2(f, dest / module / f.name)
        # Each replace of go.mod once more as written (a replace of every
        # version has its own line, as `go mod vendor` writes it).
        for path, (old_version, new) in sorted(replaces.items()):
            if not old_version or old_version != requires.get(path):
                lines.append(f"# {path}{' ' + old_version if old_version else ''} => {new}")
        (dest / "modules.txt").write_text("\n".join(lines) + "\n")
        print(f"vendor.py: {len(packages)} packages of {sum(1 for m in by_module if by_module[m])} modules "
              f"from {gocode} into {dest}")


def same_tree(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(a / d, b / d) for d in cmp.common_dirs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module_dir", nargs="?", default=str(Path(__file__).resolve().parent))
    parser.add_argument("--gocode", default="/usr/share/gocode/src")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    module_dir = Path(args.module_dir).resolve()
    with tempfile.TemporaryDirectory(prefix=".vendor-", dir=module_dir) as tmp:
        fresh = Path(tmp) / "vendor"
        vendor(module_dir, Path(args.gocode), fresh)
        current = module_dir / "vendor"
        if current.is_dir() and same_tree(current, fresh):
            return 0
        if args.check:
            print(f"vendor.py: {current} differs from what Debian's Go sources give: run {sys.argv[0]}",
                  file=sys.stderr)
            return 1
        if current.exists():
            shutil.rmtree(current)
        fresh.rename(current)
    return 0


if __name__ == "__main__":
    sys.exit(main())
