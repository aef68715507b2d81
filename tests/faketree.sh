# tests/faketree.sh: fake source trees for the include checks
# (t1001, t1002), sourced after tests/tap.sh.

# tree DIR FILE:INCLUDE...: a fake tree, each FILE including the INCLUDEs
# (comma separated); files without includes are made empty.
tree() {
	d=$1
	shift
	mkdir -p "$d"
	for spec; do
		f=${spec%%:*}
		mkdir -p "$d/$(dirname "$f")"
		: >"$d/$f"
		case $spec in *:*) ;; *) continue ;; esac
		for inc in $(echo "${spec#*:}" | tr ',' ' '); do
			echo "#include \"$inc\"" >>"$d/$f"
		done
	done
}
