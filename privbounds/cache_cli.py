"""`privbounds cache info` and `privbounds cache prune`: look into and trim the block store
of an output folder (simulators/engine/blockstore.py).

Not tied to one paper: the store holds the Monte Carlo blocks of every theorem run into
that folder.
"""

from __future__ import annotations

import argparse
import re
import shutil
import time
from pathlib import Path

from privbounds.params import ParameterError, flag
from privbounds.simulators.engine.blockstore import FILENAME, LEGACY, BlockStore, StoreError, legacy_cache

_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}


def size_bytes(text: str) -> int:
    """'2G', '500M', '1.5G' or a number of bytes -> bytes (argparse type of --cache-max)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.IGNORECASE)
    if not m or float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"a size such as 2G, 500M or 1000000 (bytes), got {text!r}")
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


def human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def add_parser(sub, out_opt) -> None:
    sp = sub.add_parser("cache", help="the block store of --out: what it holds, and pruning it")
    verbs = sp.add_subparsers(dest="verb", required=True, metavar="{info,prune}",
                              help="info: what the store holds; prune: delete blocks")
    info = verbs.add_parser("info", help="blocks, size, theorems and code versions in the store")
    info.add_argument("--codes", action="store_true", help="also list each code version with its blocks")
    out_opt(info)
    prune = verbs.add_parser("prune", help="delete blocks: by age, by code version, or all")
    prune.add_argument("--older-than", type=float, metavar="DAYS", help="blocks not used for this many days")
    prune.add_argument("--code", action="append", default=[], metavar="HASH",
                       help="blocks of this code version ('cache info --codes' lists them); repeatable")
    prune.add_argument("--all", action="store_true", help="every block")
    prune.add_argument("--legacy", action="store_true", help="the block cache folder of an earlier version")
    out_opt(prune)


def main(args) -> int:
    out = Path(args.out)
    if not out.is_dir():
        raise ParameterError(f"{flag('out')} {out}: no such folder")
    if args.verb == "info":
        return _info(out, args.codes)
    return _prune(out, args)


def _open(out: Path) -> BlockStore:
    try:
        return BlockStore(out)
    except StoreError as e:
        raise ParameterError(str(e)) from None


def _info(out: Path, codes: bool) -> int:
    legacy = legacy_cache(out)
    if not (out / FILENAME).is_file():
        print(f"{out}: no block store yet (a run writes {out / FILENAME})")
        if legacy:
            print(legacy)
        return 0
    with _open(out) as s:
        i = s.info()
        when = (lambda t: time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t else "-")
        print(f"{i.path}: {i.blocks} blocks of {i.theorems} theorems, {i.codes} code versions; "
              f"{human(i.stored_bytes)} stored, {human(i.file_bytes)} on disk (cap {human(i.max_bytes)}); "
              f"first written {when(i.oldest)}, last used {when(i.newest)}")
        if codes:
            for code, theorems, blocks, used in s.codes():
                print(f"  {code}  {blocks:>7} blocks  last used {when(used)}  {theorems}")
    if legacy:
        print(legacy)
    return 0


def _prune(out: Path, args) -> int:
    if not (args.all or args.legacy or args.code or args.older_than is not None):
        raise ParameterError("say what to prune: --older-than DAYS, --code HASH, --all or --legacy")
    if args.older_than is not None and not args.older_than >= 0:
        raise ParameterError(f"--older-than must be a number of days >= 0, got {args.older_than}")
    if args.legacy:
        folder = out / LEGACY
        if folder.is_dir():
            files = sum(1 for _ in folder.rglob("*"))
            shutil.rmtree(folder)
            print(f"removed {folder} ({files} files of an earlier version's cache)")
        else:
            print(f"{folder}: nothing to remove")
    if (out / FILENAME).is_file() and (args.all or args.code or args.older_than is not None):
        with _open(out) as s:
            removed = s.prune(older_than_days=args.older_than, codes=set(args.code) or None, everything=args.all)
            left = s.info()
        print(f"removed {removed} blocks; {left.blocks} left ({human(left.file_bytes)} on disk)")
    return 0
