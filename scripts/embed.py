#!/usr/bin/env python3
"""embed.py FILE...: print each file as a C array, as `xxd -i FILE` does.

The build embeds the viewer's style and scripts in the referee
(build/viewer-assets.h) with this script, so building needs python3 and
not xxd. For FILE referee/viewer/viewer.css it prints

    unsigned char referee_viewer_viewer_css[] = { ...12 bytes a line... };
    unsigned int referee_viewer_viewer_css_len = N;

byte for byte what xxd -i prints.
"""
import re
import sys


def embed(path, out):
    data = open(path, "rb").read()
    name = re.sub(r"[^0-9A-Za-z]", "_", path)
    if name[0].isdigit():
        name = "__" + name
    out.write("unsigned char %s[] = {\n" % name)
    lines = []
    for i in range(0, len(data), 12):
        lines.append("  " + ", ".join("0x%02x" % b for b in data[i:i + 12]))
    out.write(",\n".join(lines))
    out.write("\n};\nunsigned int %s_len = %d;\n" % (name, len(data)))


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: embed.py FILE...\n")
        return 2
    for path in sys.argv[1:]:
        embed(path, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
