#!/usr/bin/env python3
"""tests/archive-make.py KIND OUT [FILE...]: an archive for the ladder's
upload tests (t3111) and the seed corpus of tests/fuzz/fuzz-archive.c.

KIND is the archive's shape; FILEs are put at its top (the bot: its
manifest.ini and program), each by its base name, executable bits kept:

  good.tar.gz            the FILEs, and modes the ladder must not keep:
                         suid.sh (06777) and private (0600)
  good.zip               the FILEs
  top.tar.gz             the FILEs inside one top directory, bot/
  slip.zip slip.tar      the FILEs and ../escaped.txt (zip slip)
  abs.tar                the FILEs and /tmp/tetrarena-abs.txt
  symlink.tar.gz         the FILEs and link -> /etc/passwd
  symlink.zip            likewise, as a zip's symlink entry
  hardlink.tar           the FILEs and hard -> manifest.ini
  chardev.tar            the FILEs and a character device null (1, 3)
  fifo.tar               the FILEs and a fifo
  bomb.zip               the FILEs and 20 MiB of zeros (ratio ~1000:1)
  many.tar.gz            the FILEs and 30 empty files
  big.tar.gz             the FILEs and 102000 bytes of text
  twice.tar              the FILEs and manifest.ini once more
  through.tar            a file `d`, then `d/x` (a path through a file)
  truncated.tar.gz       good.tar.gz cut in half
No root is needed: tarfile writes device and fifo entries itself.
"""
import io
import os
import random
import sys
import tarfile
import zipfile


def add_files_tar(t, files, prefix=""):
    for f in files:
        t.add(f, arcname=prefix + os.path.basename(f), recursive=False)


def add_files_zip(z, files):
    for f in files:
        z.write(f, arcname=os.path.basename(f))


def member(name, kind, data=b"", **kw):
    ti = tarfile.TarInfo(name)
    ti.type = kind
    ti.size = len(data) if kind == tarfile.REGTYPE else 0
    ti.mode = 0o644
    for k, v in kw.items():
        setattr(ti, k, v)
    return ti, (io.BytesIO(data) if kind == tarfile.REGTYPE else None)


def tar(out, mode, files, extra=(), prefix=""):
    with tarfile.open(out, mode, format=tarfile.GNU_FORMAT) as t:
        add_files_tar(t, files, prefix)
        for ti, data in extra:
            t.addfile(ti, data)


def main():
    kind, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    if kind == "good.tar.gz":
        tar(out, "w:gz", files, [member("suid.sh", tarfile.REGTYPE, b"#!/bin/sh\n", mode=0o6777),
                                 member("private", tarfile.REGTYPE, b"x\n", mode=0o600)])
    elif kind == "top.tar.gz":
        with tarfile.open(out, "w:gz") as t:
            t.addfile(member("bot", tarfile.DIRTYPE, mode=0o755)[0])
            add_files_tar(t, files, "bot/")
    elif kind == "good.zip":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            add_files_zip(z, files)
    elif kind == "slip.zip":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            add_files_zip(z, files)
            z.writestr("../escaped.txt", "out of the directory\n")
    elif kind == "slip.tar":
        tar(out, "w", files, [member("sub/../../escaped.txt", tarfile.REGTYPE, b"out\n")])
    elif kind == "abs.tar":
        tar(out, "w", files, [member("/tmp/tetrarena-abs.txt", tarfile.REGTYPE, b"absolute\n")])
    elif kind == "symlink.tar.gz":
        tar(out, "w:gz", files, [member("link", tarfile.SYMTYPE, linkname="/etc/passwd")])
    elif kind == "symlink.zip":
        with zipfile.ZipFile(out, "w") as z:
            add_files_zip(z, files)
            zi = zipfile.ZipInfo("link")
            zi.create_system = 3
            zi.external_attr = (0o120777 << 16)
            z.writestr(zi, "/etc/passwd")
    elif kind == "hardlink.tar":
        tar(out, "w", files, [member("hard", tarfile.LNKTYPE, linkname="manifest.ini")])
    elif kind == "chardev.tar":
        tar(out, "w", files, [member("null", tarfile.CHRTYPE, devmajor=1, devminor=3, mode=0o666)])
    elif kind == "fifo.tar":
        tar(out, "w", files, [member("pipe", tarfile.FIFOTYPE)])
    elif kind == "bomb.zip":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            add_files_zip(z, files)
            z.writestr("zeros.bin", bytes(20 << 20))
    elif kind == "many.tar.gz":
        tar(out, "w:gz", files, [member("f%02d" % i, tarfile.REGTYPE) for i in range(30)])
    elif kind == "big.tar.gz":
        data = b"".join(b"%08d weights\n" % i for i in range(6000))
        tar(out, "w:gz", files, [member("weights.bin", tarfile.REGTYPE, data)])
    elif kind == "twice.tar":
        tar(out, "w", files, [member("manifest.ini", tarfile.REGTYPE, b"[bot]\ncommand = ./other\n")])
    elif kind == "through.tar":
        tar(out, "w", files, [member("d", tarfile.REGTYPE, b"file\n"), member("d/x", tarfile.REGTYPE, b"x\n")])
    elif kind == "truncated.tar.gz":
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            add_files_tar(t, files)
        data = buf.getvalue()
        with open(out, "wb") as f:
            f.write(data[: len(data) // 2])
    else:
        sys.exit("archive-make.py: unknown kind " + kind)


main()
