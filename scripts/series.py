#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the repository into a kernel git tree and back.

The repository keeps the hot_track series as:

  series/MANIFEST     patch order; for each patch the new files it adds
  series/<name>.msg   the commit message of each patch
  series/cover-letter the cover letter (first line is the subject)
  patches/<name>.diff the patch's changes to files that exist before it
                      (base files, or files an earlier patch added)
  linux/<path>        the final content of every file the series adds

Commands:

  tree    build/linux: the base as one commit (tag hot-track-base) and one
          commit per patch on branch hot_track
  export  write the work tree's commits back into series/, patches/, linux/
  series  git format-patch output with a cover letter in build/series/
  verify  the series applies with git am onto a fresh base and gives the
          same tree as the work tree
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.environ.get("TREE", os.path.join(TOP, "build", "linux"))
BASE_TAG = "hot-track-base"
BRANCH = "hot_track"
AUTHOR = ("hot_track developers", "hot-track@lists.example.org")
DATE = "2026-11-01T00:00:00+0000"

MANIFEST = os.path.join(TOP, "series", "MANIFEST")


def die(msg):
    sys.stderr.write("series: %s\n" % msg)
    sys.exit(1)


def git(*args, cwd=TREE, env=None, check=True, input=None):
    e = dict(os.environ)
    e.update({"GIT_AUTHOR_NAME": AUTHOR[0], "GIT_AUTHOR_EMAIL": AUTHOR[1],
              "GIT_COMMITTER_NAME": AUTHOR[0],
              "GIT_COMMITTER_EMAIL": AUTHOR[1],
              "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE})
    if env:
        e.update(env)
    r = subprocess.run(["git", "-c", "core.autocrlf=false",
                        "-c", "gc.auto=0", "-c", "core.abbrev=12", *args], cwd=cwd, env=e,
                       input=input, capture_output=True, text=True)
    if check and r.returncode:
        die("git %s failed:\n%s%s" % (" ".join(args[:3]), r.stdout,
                                      r.stderr))
    return r.stdout


# ---------------------------------------------------------------- manifest

def read_manifest():
    """Return [(name, [added paths], has_diff)] in series order."""
    patches = []
    if not os.path.exists(MANIFEST):
        return patches
    with open(MANIFEST) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].rstrip()
            if not line:
                continue
            words = line.split()
            if words[0] == "patch" and len(words) == 2:
                patches.append((words[1], [], False))
            elif words[0] == "adds" and len(words) == 2 and patches:
                patches[-1][1].append(words[1])
            elif words[0] == "diff" and len(words) == 1 and patches:
                name, adds, _ = patches[-1]
                patches[-1] = (name, adds, True)
            else:
                die("MANIFEST:%d: cannot parse %r" % (n, line))
    return patches


def write_manifest(patches):
    with open(MANIFEST, "w") as f:
        f.write("# The hot_track patch series, in order; written by "
                "'make export'.\n"
                "#   patch NAME  commit message in series/NAME.msg\n"
                "#   adds PATH   a new file; its final content is "
                "linux/PATH\n"
                "#   diff        patches/NAME.diff changes files that "
                "exist before the patch\n")
        for name, adds, has_diff in patches:
            f.write("\npatch %s\n" % name)
            for p in adds:
                f.write("  adds %s\n" % p)
            if has_diff:
                f.write("  diff\n")


# ---------------------------------------------------------------- tree

def make_base(tarball):
    """Create TREE with the base as its first commit, tagged BASE_TAG."""
    if os.path.exists(TREE):
        shutil.rmtree(TREE)
    os.makedirs(TREE)
    if os.path.isdir(tarball):
        subprocess.run(["rsync", "-a", "--exclude=.git", tarball + "/",
                        TREE + "/"], check=True)
        what = "Kernel tree from %s" % tarball
    else:
        subprocess.run(["tar", "-xf", tarball, "-C", TREE,
                        "--strip-components=1"], check=True)
        what = ("Linux 7.3.4 as in Debian linux-source-7.3 "
                "7.3.4-1~bpo13+1")
    # Debian's tarball ends .gitignore with a packaging rule ("/*") that
    # ignores every top-level path: drop that block or nothing is added.
    gi = os.path.join(TREE, ".gitignore")
    if os.path.exists(gi):
        text = open(gi).read()
        cut = text.find("#\n# Debian packaging")
        if cut >= 0:
            open(gi, "w").write(text[:cut].rstrip("\n") + "\n")
    git("init", "-q", "-b", BRANCH)
    git("config", "user.name", AUTHOR[0])
    git("config", "user.email", AUTHOR[1])
    git("add", "-A", "-f", ".")
    git("commit", "-q", "--no-verify", "-m", what)
    git("tag", BASE_TAG)


def apply_series():
    """Commit every patch of the manifest on top of the base."""
    patches = read_manifest()
    added_by = {}
    for i, (_, adds, _) in enumerate(patches):
        for p in adds:
            if p in added_by:
                die("%s is added twice" % p)
            added_by[p] = i
    linux = os.path.join(TOP, "linux")
    for root, _, files in os.walk(linux):
        for fn in files:
            rel = os.path.relpath(os.path.join(root, fn), linux)
            if rel not in added_by:
                die("linux/%s is in no patch of series/MANIFEST" % rel)

    # States of the new files after each patch: start from the final
    # content and undo the later patches' diffs, last patch first.
    states = [dict() for _ in patches]
    with tempfile.TemporaryDirectory() as tmp:
        for p in added_by:
            src = os.path.join(linux, p)
            if not os.path.exists(src):
                die("linux/%s is missing" % p)
            os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
            shutil.copy2(src, os.path.join(tmp, p))
        for i in range(len(patches) - 1, -1, -1):
            name, adds, has_diff = patches[i]
            for p in adds:
                fp = os.path.join(tmp, p)
                states[i][p] = (open(fp, "rb").read(),
                                os.stat(fp).st_mode & 0o111)
                os.unlink(fp)
            if not has_diff:
                continue
            touched = [p for p in added_by if added_by[p] < i]
            if touched:
                diff = os.path.join(TOP, "patches", name + ".diff")
                args = ["apply", "-R"]
                args += ["--include=" + p for p in touched]
                r = subprocess.run(["git", *args, diff], cwd=tmp,
                                   capture_output=True, text=True)
                if r.returncode:
                    die("cannot undo %s on the new files:\n%s" %
                        (name, r.stderr))

    # Build the commits in a scratch index, without touching the work
    # tree, then move the work tree to the result: only files whose
    # content changes get new timestamps, so a rebuild stays incremental.
    index = os.path.join(TREE, ".git", "hot_track.index")
    env = {"GIT_INDEX_FILE": index}
    git("read-tree", BASE_TAG, env=env)
    head = git("rev-parse", BASE_TAG + "^{commit}").strip()
    for i, (name, adds, has_diff) in enumerate(patches):
        if has_diff:
            git("apply", "--cached", "--whitespace=nowarn",
                os.path.join(TOP, "patches", name + ".diff"), env=env)
        for p in adds:
            data, xbits = states[i][p]
            blob = subprocess.run(["git", "hash-object", "-w", "--stdin"],
                                  cwd=TREE, input=data, check=True,
                                  capture_output=True).stdout.decode().strip()
            git("update-index", "--add", "--cacheinfo",
                "%s,%s,%s" % ("100755" if xbits else "100644", blob, p),
                env=env)
        tree = git("write-tree", env=env).strip()
        with open(os.path.join(TOP, "series", name + ".msg")) as f:
            msg = f.read()
        head = git("commit-tree", tree, "-p", head, input=msg).strip()
    os.unlink(index)
    git("update-ref", "refs/heads/" + BRANCH, head)
    git("symbolic-ref", "HEAD", "refs/heads/" + BRANCH)
    git("reset", "-q", "--hard", BRANCH)
    desc = os.path.join(TOP, "series", "cover-letter")
    if os.path.exists(desc):
        git("config", "branch.%s.description" % BRANCH, open(desc).read())
    print("series: %d patches on %s in %s" % (len(patches), BASE_TAG, TREE))


def cmd_tree(argv):
    force = os.environ.get("FORCE") == "1"
    tarball = argv[0] if argv else None
    have = os.path.isdir(os.path.join(TREE, ".git")) and \
        git("tag", "-l", BASE_TAG).strip() == BASE_TAG
    if have:
        dirty = git("status", "--porcelain", "--untracked-files=no")
        if dirty and not force:
            die("%s has uncommitted changes; commit and 'make export' "
                "them, or FORCE=1 to drop them" % TREE)
        # Keep whatever was there reachable, in case it was not exported.
        head = git("rev-parse", "HEAD").strip()
        git("update-ref", "refs/hot_track/previous", head)
    else:
        if not tarball:
            die("no base tree yet: give the tarball or tree")
        make_base(tarball)
    apply_series()


# ---------------------------------------------------------------- export

def slug(subject):
    s = re.sub(r"[^A-Za-z0-9._]+", "-", subject).strip("-.")
    return s[:52].rstrip("-.")


def cmd_export(argv):
    commits = git("rev-list", "--reverse", BASE_TAG + "..HEAD").split()
    if git("status", "--porcelain", "--untracked-files=no"):
        die("%s has uncommitted changes: commit them first" % TREE)
    base_files = set(git("ls-tree", "-r", "--name-only", BASE_TAG).split(
        "\n"))
    new_files = {}
    patches = []
    msgs = {}
    diffs = {}
    for i, c in enumerate(commits, 1):
        subject = git("log", "-1", "--format=%s", c).strip()
        name = "%04d-%s" % (i, slug(subject))
        msgs[name] = git("log", "-1", "--format=%B", c).rstrip() + "\n"
        adds = []
        for line in git("diff", "--no-renames", "--name-status",
                        c + "^", c).splitlines():
            st, path = line.split("\t", 1)
            if st == "A" and path not in base_files and path not in new_files:
                adds.append(path)
                new_files[path] = name
            elif st == "D" and path in new_files:
                die("%s deletes %s, which the series added: squash that "
                    "instead" % (name, path))
        spec = ["."] + [":(exclude,top)" + p for p in adds]
        diff = git("diff", "--no-renames", c + "^", c, "--", *spec)
        if diff:
            diffs[name] = diff
        patches.append((name, sorted(adds), bool(diff)))

    for d in ("series", "patches"):
        os.makedirs(os.path.join(TOP, d), exist_ok=True)
    for fn in os.listdir(os.path.join(TOP, "series")):
        if fn.endswith(".msg"):
            os.unlink(os.path.join(TOP, "series", fn))
    for fn in os.listdir(os.path.join(TOP, "patches")):
        if fn.endswith(".diff"):
            os.unlink(os.path.join(TOP, "patches", fn))
    shutil.rmtree(os.path.join(TOP, "linux"), ignore_errors=True)

    for name, text in msgs.items():
        with open(os.path.join(TOP, "series", name + ".msg"), "w") as f:
            f.write(text)
    for name, text in diffs.items():
        with open(os.path.join(TOP, "patches", name + ".diff"), "w") as f:
            f.write(text)
    modes = {}
    for line in git("ls-tree", "-r", "HEAD", "--",
                    *new_files.keys()).splitlines() if new_files else []:
        meta, path = line.split("\t", 1)
        modes[path] = meta.split()[0]
    for path in new_files:
        dst = os.path.join(TOP, "linux", path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        data = subprocess.run(["git", "show", "HEAD:" + path], cwd=TREE,
                              capture_output=True, check=True).stdout
        with open(dst, "wb") as f:
            f.write(data)
        os.chmod(dst, 0o755 if modes.get(path) == "100755" else 0o644)
    write_manifest(patches)
    desc = git("config", "branch.%s.description" % BRANCH, check=False)
    if desc.strip():
        with open(os.path.join(TOP, "series", "cover-letter"), "w") as f:
            f.write(desc.rstrip() + "\n")
    print("series: exported %d patches, %d new files" %
          (len(patches), len(new_files)))


# ---------------------------------------------------------------- series

def cmd_series(argv):
    out = os.path.join(TOP, "build", "series")
    shutil.rmtree(out, ignore_errors=True)
    git("format-patch", "-q", "--cover-letter",
        "--cover-from-description=subject", "--base=" + BASE_TAG,
        "--no-signature", "-o", out, BASE_TAG + "..HEAD")
    print("series: %d files in %s" % (len(os.listdir(out)), out))


def cmd_verify(argv):
    """git am the series onto a fresh checkout of the base."""
    out = os.path.join(TOP, "build", "series")
    mails = sorted(f for f in os.listdir(out) if f.endswith(".patch") and
                   not f.startswith("0000-"))
    wt = os.path.join(TOP, "build", "am-check")
    git("worktree", "remove", "--force", wt, check=False)
    shutil.rmtree(wt, ignore_errors=True)
    git("worktree", "prune")
    git("worktree", "add", "-q", "--detach", wt, BASE_TAG)
    try:
        git("am", "-q", "--whitespace=error-all",
            *[os.path.join(out, m) for m in mails], cwd=wt)
        got = git("rev-parse", "HEAD^{tree}", cwd=wt).strip()
        want = git("rev-parse", "HEAD^{tree}").strip()
        if got != want:
            die("the series applied with git am differs from the work tree")
    finally:
        git("worktree", "remove", "--force", wt, check=False)
    print("series: %d patches apply with git am onto %s" %
          (len(mails), BASE_TAG))


if __name__ == "__main__":
    cmds = {"tree": cmd_tree, "export": cmd_export, "series": cmd_series,
            "verify": cmd_verify}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        die("usage: series.py tree [TARBALL|DIR] | export | series | verify")
    cmds[sys.argv[1]](sys.argv[2:])
