#!/usr/bin/env bash
# Prepare the kernel source tree for FLAVOR (default: ours).
#
#   build/linux-src   pristine 6.12 tree (extracted once, never modified)
#   build/linux       FLAVOR=ours: a git repo whose first commit (tag
#                     "pristine") is build/linux-src, with scripts/removed-files
#                     deleted, patches/*.patch applied and the overlay copied.
#   PRISTINE_ONLY=1   only extract build/linux-src (when missing) and print the
#                     base version.
#
# Incremental: the tree is only reset to pristine when the removals, the glue
# patches or the pristine base changed (a hash stamp), or when an overlay
# file that shadowed a pristine file disappeared.  Overlay files are copied
# with rsync -c so unchanged files keep their mtime and kbuild rebuilds only
# what really changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEBIAN_TARBALL=/usr/src/linux-source-6.12.tar.xz
REPO=$BUILD/linux
REMOVED_LIST=$ROOT/scripts/removed-files

# --- pristine tree -----------------------------------------------------------

# Extract $KERNEL_SRC (a dir or tarball) or the Debian linux-source tarball
# into build/linux-src unless it is already there.
ensure_pristine() {
	local origin_file=$BUILD/linux-src.origin
	if [ -f "$PRISTINE/kernel/kprobes.c" ] && [ -f "$PRISTINE/Makefile" ]; then
		return 0
	fi
	local src=${KERNEL_SRC:-$DEBIAN_TARBALL} origin
	[ -e "$src" ] || die "no kernel source: $src missing (run scripts/deps.sh or set KERNEL_SRC)"
	log "extracting pristine tree from $src (once)"
	rm -rf "$PRISTINE.tmp"
	mkdir -p "$PRISTINE.tmp"
	if [ -d "$src" ]; then
		rsync -a --exclude=.git "$src"/ "$PRISTINE.tmp"/
		origin="copied from $src"
	else
		tar -xf "$src" --strip-components=1 -C "$PRISTINE.tmp"
		origin="from $(basename "$src")"
		[ "$src" = "$DEBIAN_TARBALL" ] && origin="Debian $(basename "$src" .tar.xz)"
	fi
	[ -f "$PRISTINE.tmp/kernel/kprobes.c" ] || die "$src does not look like a kernel tree"
	rm -rf "$PRISTINE"
	mv "$PRISTINE.tmp" "$PRISTINE"
	echo "$origin" >"$origin_file"
}

print_base() {
	local origin="build/linux-src"
	[ -f "$BUILD/linux-src.origin" ] && origin=$(cat "$BUILD/linux-src.origin")
	echo "base: $(kernel_version_of "$PRISTINE") ($origin)"
}

# --- our tree ----------------------------------------------------------------

git_repo() { git -C "$REPO" "$@"; }

# Create build/linux as a git repo whose first commit is the pristine tree.
create_repo() {
	log "creating $REPO from the pristine tree (once; takes a minute)"
	rm -rf "$REPO"
	mkdir -p "$REPO"
	rsync -a "$PRISTINE"/ "$REPO"/
	git_repo init -q
	git_repo config user.name "Kprobes Rewrite"
	git_repo config user.email "kprobes-rewrite@example.org"
	git_repo config gc.auto 0
	git_repo config core.autocrlf false
	# The kernel's own .gitignore says "/*"-style patterns: force-add all.
	git_repo add -f -A
	git_repo commit -q -m "pristine: $(kernel_version_of "$PRISTINE")"
	git_repo tag pristine
}

# The inputs that need a reset when they change: base version, removal list,
# glue patches (names and contents).
tree_inputs_hash() {
	{
		kernel_version_of "$PRISTINE"
		grep -v '^\s*\(#\|$\)' "$REMOVED_LIST" || true
		local p
		for p in "$ROOT"/patches/*.patch; do
			[ -f "$p" ] || continue
			echo "== $(basename "$p")"
			cat "$p"
		done
	} | hash_stdin
}

# Paths (relative to the tree) matched by the removed-files globs.
removed_paths() {
	local pat
	{ grep -v '^\s*\(#\|$\)' "$REMOVED_LIST" || true; } | while read -r pat; do
		# Expand the glob inside the tree; print nothing if it matches nothing.
		(cd "$REPO" && shopt -s nullglob dotglob && for f in $pat; do echo "$f"; done)
	done
}

# A reset rewrites every file that differs from pristine, which would bump
# the mtime of e.g. our include/linux/kprobes.h and rebuild half the kernel.
# So: keep a copy (with mtime) of each such file before the reset, and give
# back the old mtime to those that end up with the same content.
MTIME_SAVE=$STAMPS/mtime-save

save_mtimes() {
	rm -rf "$MTIME_SAVE"
	mkdir -p "$MTIME_SAVE"
	local f
	git_repo status --porcelain -uall | cut -c4- | while read -r f; do
		[ -f "$REPO/$f" ] || continue
		mkdir -p "$MTIME_SAVE/$(dirname "$f")"
		cp -p "$REPO/$f" "$MTIME_SAVE/$f"
	done
}

restore_mtimes() {
	[ -d "$MTIME_SAVE" ] || return 0
	local f n=0
	while read -r f; do
		f=${f#./}
		if [ -f "$REPO/$f" ] && cmp -s "$MTIME_SAVE/$f" "$REPO/$f"; then
			touch -r "$MTIME_SAVE/$f" "$REPO/$f"
			n=$((n + 1))
		fi
	done < <(cd "$MTIME_SAVE" && find . -type f)
	rm -rf "$MTIME_SAVE"
	log "kept the old mtime of $n unchanged files"
}

reset_and_patch() {
	log "resetting build/linux to pristine and re-applying removals + patches"
	save_mtimes
	git_repo reset -q --hard pristine
	git_repo clean -q -fdx
	local f n=0
	while read -r f; do
		rm -rf "${REPO:?}/$f"
		n=$((n + 1))
	done < <(removed_paths)
	log "removed $n incumbent paths"
	local p
	for p in "$ROOT"/patches/*.patch; do
		[ -f "$p" ] || continue
		log "applying $(basename "$p")"
		git_repo apply --whitespace=nowarn "$p" ||
			die "patch $(basename "$p") does not apply on pristine minus removed-files"
	done
	rm -f "$STAMPS/overlay-ours.list"
}

# Copy the overlay; return 1 if a vanished overlay file shadowed a pristine
# file (then only a reset restores the right content).
sync_overlay() {
	local list=$STAMPS/overlay-ours.list new=$STAMPS/overlay-ours.list.new
	overlay_files >"$new"
	if [ -f "$list" ]; then
		local gone
		while read -r gone; do
			if git_repo cat-file -e "pristine:$gone" 2>/dev/null; then
				log "overlay file $gone vanished and shadowed a pristine file"
				return 1
			fi
			log "deleting vanished overlay file $gone"
			rm -f "${REPO:?}/$gone"
		done < <(LC_ALL=C comm -23 "$list" "$new")
	fi
	local changed=0
	if [ -s "$new" ]; then
		# -c: compare contents, not mtimes; no -t: an updated file gets a
		# fresh mtime, an identical one is not touched at all.
		changed=$(cd "$ROOT" && rsync -rc --out-format='%n' --files-from="$new" ./ "$REPO"/ | grep -vc '/$' || true)
	fi
	log "overlay: $(wc -l <"$new") files, $changed updated"
	mv "$new" "$list"
}

prepare_ours() {
	mkdir -p "$STAMPS"
	local stamp=$STAMPS/tree-ours.hash want
	# (Re)create the repo when missing or when it holds another base version.
	if [ "$(git_repo log -1 --format=%s pristine 2>/dev/null)" != "pristine: $(kernel_version_of "$PRISTINE")" ]; then
		create_repo
	fi
	want=$(tree_inputs_hash)
	if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		rm -f "$stamp"
		reset_and_patch
	fi
	if ! sync_overlay; then
		reset_and_patch
		sync_overlay
	fi
	restore_mtimes
	echo "$want" >"$stamp"
}

main() {
	ensure_pristine
	print_base
	# PRISTINE_ONLY=1: just make sure build/linux-src exists (originality).
	[ "${PRISTINE_ONLY:-0}" = 1 ] && return 0
	case $FLAVOR in
		incumbent) log "FLAVOR=incumbent: building build/linux-src as is" ;;
		ours) prepare_ours ;;
	esac
}

main "$@"
