#!/bin/sh
# t1001-include-circles: no two modules (x.c and x.h together) include each
# other, directly or around a longer cycle, anywhere in the tree
# (scripts/include-circles.py), except the circles still listed in
# tests/include-circles.allow. Self-tests on fake trees: the checker finds
# a two-module circle, a three-module cycle, an include through a -I
# directory, passes a tree without a circle, passes a listed circle and
# still fails on a new one beside it, and takes the pieces of a split
# module (x-part.c, the private x-int.h) as part of module x.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
checker="python3 $top/scripts/include-circles.py"
allow=$top/tests/include-circles.allow
need "$top/scripts/include-circles.py" "$allow"

. "$top/tests/faketree.sh"

echo "1..9"
$checker --allow "$allow" "$top" >"$tmp/tree" 2>&1
st=$?
check "the tree has no include circle but the known ones (exit $st)" [ $st = 0 ]
sed 's/^/# /' "$tmp/tree"
check "the allowlist names no circle that is gone" sh -c "! grep -q '^gone ' '$tmp/tree'"

tree "$tmp/two" a/x.c:x.h,y.h a/x.h a/y.c:y.h a/y.h:x.h
$checker "$tmp/two" >"$tmp/two.out" 2>&1
st=$?
check "self-test: x.c includes y.h, y.h includes x.h: a circle (exit 1, named)" \
	sh -c "[ $st = 1 ] && grep -q '^NEW circle: a/x a/y ' '$tmp/two.out'"

tree "$tmp/three" p/a.c:a.h,b.h p/a.h p/b.h:c.h p/c.h p/c.c:c.h,../q/d.h q/d.h:../p/a.h
$checker "$tmp/three" >"$tmp/three.out" 2>&1
st=$?
check "self-test: a -> b -> c -> d -> a is one circle of four modules" \
	sh -c "[ $st = 1 ] && grep -q '^NEW circle: p/a p/b p/c q/d ' '$tmp/three.out'"

tree "$tmp/idir" engine/e.c:e.h,referee/r.h engine/e.h:r.h engine/r.h referee/r.c:r.h referee/r.h:e.h
$checker "$tmp/idir" >"$tmp/idir.out" 2>&1
st=$?
check "self-test: includes found next to the file first, then through -I. and -Iengine" \
	sh -c "[ $st = 1 ] && grep -q '^NEW circle: engine/e referee/r ' '$tmp/idir.out' && [ \$(grep -c circle '$tmp/idir.out') = 1 ]"

tree "$tmp/none" engine/e.c:e.h,stdio.h engine/e.h engine/f.c:f.h,e.h engine/f.h:e.h referee/g.c:f.h,build/gen.h
$checker "$tmp/none" >"$tmp/none.out" 2>&1
check "self-test: a tree without a circle passes, silent" sh -c "[ $? = 0 ] && [ ! -s '$tmp/none.out' ]"

printf '# known\na/y a/x\n' >"$tmp/allow"
$checker --allow "$tmp/allow" "$tmp/two" >"$tmp/known.out" 2>&1
check "self-test: a listed circle passes as known" sh -c "[ $? = 0 ] && grep -q '^known circle: a/x a/y ' '$tmp/known.out'"

tree "$tmp/two" b/u.c:u.h,v.h b/u.h b/v.h:u.h
$checker --allow "$tmp/allow" "$tmp/two" >"$tmp/new.out" 2>&1
st=$?
check "self-test: a new circle beside a listed one fails" \
	sh -c "[ $st = 1 ] && grep -q '^known circle: a/x a/y ' '$tmp/new.out' && grep -q '^NEW circle: b/u b/v ' '$tmp/new.out'"
tree "$tmp/split" m/x.h m/x.c:x-int.h m/x-int.h:x.h m/x-jail.c:x-int.h m/y.h:x.h m/y.c:y.h,x.h m/z-a.c:y.h
$checker "$tmp/split" >"$tmp/split.out" 2>&1
st=$?
check "self-test: x.c, x-jail.c and the private x-int.h are one module x: no circle" \
	sh -c "[ $st = 0 ] && [ ! -s '$tmp/split.out' ]"
exit $fail
