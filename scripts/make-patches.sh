#!/usr/bin/env bash
# Export the patch series to out/patches and check it.
#
# The series is series/NN-slug.msg (the whole commit message: subject, blank
# line, body, trailers) + series/NN-slug.files, one entry per line:
#     path/in/project        add or update that overlay file (a dir: all
#                            files under it; globs allowed)
#     -path/in/kernel        delete pristine path(s) (globs allowed)
#     patches/NAME.patch     apply that glue patch (globs allowed)
#     path <- D.diff ...     the overlay file path minus the hunks of the
#                            diffs D (series/strip/NN-slug.diff: what patch
#                            NN adds to files that earlier patches carry),
#                            taken off with git apply -R, last one first
# Blank lines and # comments are ignored.
#
# Steps: commit every entry in order on the pristine tree in
# build/series-work, git format-patch to out/patches (+ out/patches/series
# and 0000-cover-letter.patch, filled from series/cover-letter.txt),
# then verify
#   (a) every overlay file and every patches/*.patch is used by some entry,
#       and the series' final tree equals build/linux (make tree);
#   (b) git am of out/patches onto the pristine tree succeeds and gives the
#       same tree;
#   (c) scripts/checkpatch.pl --strict is clean on every patch, except for
#       the message types listed in series/checkpatch-ignore.
# BUILD_EACH=1 also builds the kernel after each commit (bisectability).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

WORK=$BUILD/series-work
OUT=$ROOT/out/patches
SERIES=$ROOT/series
LINUX=$BUILD/linux
ERRORS=0

error() { printf '[make-patches] ERROR: %s\n' "$*" >&2; ERRORS=$((ERRORS + 1)); }
w() { git -C "$WORK" "$@"; }

# Author/committer of one commit: the first Signed-off-by of its message
# (checkpatch wants the author's sign-off), else the project repo's git
# identity, else the project's default.
set_identity() {
	local msg=$1 sob name email
	sob=$(sed -n 's/^Signed-off-by:[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/\1/p' "$msg" | head -n 1)
	if [[ $sob =~ ^(.+)\ \<([^\>]+)\>$ ]]; then
		name=${BASH_REMATCH[1]} email=${BASH_REMATCH[2]}
	else
		name=$(git -C "$ROOT" config user.name 2>/dev/null || true)
		email=$(git -C "$ROOT" config user.email 2>/dev/null || true)
	fi
	export GIT_AUTHOR_NAME=${name:-Kprobes Rewrite}
	export GIT_AUTHOR_EMAIL=${email:-kprobes-rewrite@example.org}
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
}

# series/NN-slug stems, in order.
entries() {
	local f
	for f in "$SERIES"/[0-9]*.msg; do
		[ -f "$f" ] && basename "$f" .msg
	done | LC_ALL=C sort
}

# Non-comment lines of a .files file.
file_entries() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$1"; }

# Expand a glob relative to directory $1; nothing if it matches nothing.
expand_in() {
	(cd "$1" && shopt -s nullglob dotglob globstar && for f in $2; do echo "$f"; done)
}

# A work tree at the pristine commit, cloned from build/linux (hardlinked
# objects; re-used between runs: only changed files are rewritten).
setup_work() {
	local want
	want=$(git -C "$LINUX" rev-parse pristine)
	if [ "$(w rev-parse -q --verify pristine 2>/dev/null)" != "$want" ]; then
		log "cloning the pristine commit into ${WORK#"$ROOT"/} (once)"
		rm -rf "$WORK"
		git clone -q --no-checkout "$LINUX" "$WORK"
		w config gc.auto 0
		w tag -f pristine "$want" >/dev/null
	fi
	w am --abort >/dev/null 2>&1 || true
	w checkout -q -f -B series pristine
	w clean -q -fdx
}

# Apply one .files entry to the work tree; record what it covers.
apply_entry() {
	local stem=$1 line=$2 p matches dest src
	case $line in
		*' <- '*)
			# The overlay file as it is before later patches add
			# their hunks (series/strip/): fails loudly when a diff
			# no longer comes off the file.
			dest=${line%% <- *}
			[ -f "$ROOT/$dest" ] || { error "$stem: '$dest' not in the project"; return; }
			mkdir -p "$WORK/$(dirname "$dest")"
			cp "$ROOT/$dest" "$WORK/$dest"
			local -a diffs
			read -r -a diffs <<<"${line#* <- }"
			for ((p = ${#diffs[@]} - 1; p >= 0; p--)); do
				src=${diffs[p]}
				[ -f "$ROOT/$src" ] || { error "$stem: '$src' (for $dest) not in the project"; return; }
				(cd "$WORK" && git apply -R --include="$dest" "$ROOT/$src") ||
					error "$stem: the hunks of $src do not come off $dest"
			done
			;;
		-*)
			matches=$(expand_in "$WORK" "${line#-}")
			[ -n "$matches" ] || { error "$stem: '$line' deletes nothing"; return; }
			while read -r p; do rm -rf "${WORK:?}/$p"; done <<<"$matches"
			;;
		patches/*)
			matches=$(expand_in "$ROOT" "$line")
			[ -n "$matches" ] || { error "$stem: no glue patch matches '$line'"; return; }
			while read -r p; do
				echo "$p" >>"$COVERED"
				(cd "$WORK" && git apply --whitespace=nowarn "$ROOT/$p") ||
					error "$stem: $p does not apply"
			done <<<"$matches"
			;;
		*)
			matches=$(expand_in "$ROOT" "$line")
			[ -n "$matches" ] || { error "$stem: overlay path '$line' not in the project"; return; }
			while read -r p; do
				if [ -d "$ROOT/$p" ]; then
					(cd "$ROOT" && find "$p" -type f) >>"$COVERED"
					mkdir -p "$WORK/$p"
					cp -a "$ROOT/$p/." "$WORK/$p/"
				else
					echo "$p" >>"$COVERED"
					mkdir -p "$WORK/$(dirname "$p")"
					cp -a "$ROOT/$p" "$WORK/$p"
				fi
			done <<<"$matches"
			;;
	esac
}

# Build the tree at the current commit (BUILD_EACH=1).
build_here() {
	local stem=$1
	log "BUILD_EACH: building after $stem"
	if KSRC=$WORK KOBJ=$BUILD/obj-series BUILD_ONLY=1 FLAVOR=ours "$ROOT/scripts/build-kernel.sh"; then
		BUILD_RESULTS+=("ok    $stem")
	else
		BUILD_RESULTS+=("FAIL  $stem")
		error "$stem: the tree does not build at this commit"
	fi
}

commit_series() {
	local stem line date
	for stem in $(entries); do
		[ -f "$SERIES/$stem.files" ] || { error "$stem: $stem.files missing"; continue; }
		while read -r line; do
			apply_entry "$stem" "$line"
		done < <(file_entries "$SERIES/$stem.files")
		w add -A -f
		if w diff --cached --quiet; then
			error "$stem: the entry changes nothing"
			continue
		fi
		# The date of the last project commit touching this entry keeps the
		# exported patches stable from one run to the next.
		set_identity "$SERIES/$stem.msg"
		date=$(git -C "$ROOT" log -1 --format=%cI -- "series/$stem.msg" "series/$stem.files" 2>/dev/null || true)
		GIT_AUTHOR_DATE=${date:-} GIT_COMMITTER_DATE=${date:-} \
			w commit -q --no-verify --cleanup=strip -F "$SERIES/$stem.msg"
		log "committed $stem: $(w log -1 --format=%s)"
		[ "${BUILD_EACH:-0}" = 1 ] && build_here "$stem"
	done
	for stem in "$SERIES"/[0-9]*.files; do
		[ -f "$stem" ] && [ ! -f "${stem%.files}.msg" ] && error "$(basename "$stem"): no matching .msg"
	done
	return 0
}

# The cover letter: git's template (shortlog, diffstat) with the subject
# and text of series/cover-letter.txt (subject line, blank line, body).
fill_cover_letter() {  # fill_cover_letter FILE
	local cover=$BUILD/cover-letter.txt
	[ -f "$SERIES/cover-letter.txt" ] || { error "series/cover-letter.txt missing"; return; }
	# Its @results:NAME@ lines become the figures of docs/results/.
	RESULTS_DIR= python3 "$ROOT/scripts/results.py" fill "$SERIES/cover-letter.txt" --out "$cover" ||
		{ error "cover letter: scripts/results.py fill failed"; return; }
	python3 - "$1" "$cover" <<-'PY' || error "cover letter: template not as expected"
	import sys
	path, src = sys.argv[1], sys.argv[2]
	subject, _, body = open(src).read().partition("\n\n")
	text = open(path).read()
	if "*** SUBJECT HERE ***" not in text or "*** BLURB HERE ***" not in text:
	    sys.exit(1)
	text = text.replace("*** SUBJECT HERE ***", subject.strip())
	text = text.replace("*** BLURB HERE ***", body.rstrip())
	open(path, "w").write(text)
	PY
}

export_patches() {
	rm -rf "$OUT"
	mkdir -p "$OUT"
	w format-patch -q --cover-letter -o "$OUT" pristine..series >/dev/null
	fill_cover_letter "$OUT"/0000-cover-letter.patch
	# out/patches/series lists what git am applies: not the cover letter.
	(cd "$OUT" && ls -1 -- *.patch 2>/dev/null | grep -v '^0000-cover-letter') >"$OUT/series" || true
	log "exported $(grep -c . "$OUT/series" || true) patches and a cover letter to ${OUT#"$ROOT"/}"
}

# (a) coverage and final tree == build/linux
check_coverage() {
	local missing
	missing=$( { overlay_files; (cd "$ROOT" && ls -1 patches/*.patch 2>/dev/null || true); } |
		LC_ALL=C sort -u | LC_ALL=C comm -23 - <(LC_ALL=C sort -u "$COVERED"))
	if [ -n "$missing" ]; then
		error "not covered by any series entry:"
		sed 's/^/    /' <<<"$missing" >&2
	fi
	# Hash build/linux's work tree into a tree object of the series repo,
	# starting from build/linux's index so only changed files are re-read.
	local idx=$BUILD/stamps/series-linux.index tree_linux tree_series
	mkdir -p "$BUILD/stamps"
	cp "$LINUX/.git/index" "$idx"
	GIT_INDEX_FILE=$idx git --git-dir="$WORK/.git" --work-tree="$LINUX" add -A -f
	tree_linux=$(GIT_INDEX_FILE=$idx git --git-dir="$WORK/.git" write-tree)
	tree_series=$(w rev-parse 'series^{tree}')
	if [ "$tree_linux" != "$tree_series" ]; then
		error "the series' final tree differs from build/linux (make tree):"
		w diff --stat "$tree_series" "$tree_linux" | sed 's/^/    /' >&2
		echo "    (left: series, right: build/linux)" >&2
	else
		log "(a) coverage ok; final tree == build/linux"
	fi
}

# (b) git am onto the pristine tree
check_am() {
	local n
	n=$(grep -c . "$OUT/series" || true)
	[ "$n" -gt 0 ] || { error "no patches to apply"; return; }
	local -a files
	mapfile -t files < <(sed "s|^|$OUT/|" "$OUT/series")
	w checkout -q -f -B am-check pristine
	if w am -q --whitespace=nowarn "${files[@]}" >/dev/null 2>"$BUILD/stamps/am.err"; then
		if [ "$(w rev-parse 'am-check^{tree}')" = "$(w rev-parse 'series^{tree}')" ]; then
			log "(b) git am: $n patches apply on pristine"
		else
			error "git am result differs from the series"
		fi
	else
		error "git am failed:"
		sed 's/^/    /' "$BUILD/stamps/am.err" >&2
		w am --abort >/dev/null 2>&1 || true
	fi
	w checkout -q -f series
}

# (c) checkpatch --strict on every patch, from the pristine tree
check_style() {
	local ignore patch out e wn c bad=0
	ignore=$( { file_entries "$SERIES/checkpatch-ignore" 2>/dev/null || true; } | paste -sd, -)
	printf '\n%-66s %6s %8s %6s\n' "patch" "errors" "warnings" "checks"
	while read -r patch; do
		[ -n "$patch" ] || continue
		out=$(cd "$PRISTINE" && perl scripts/checkpatch.pl --strict --color=never \
			${ignore:+--ignore "$ignore"} "$OUT/$patch" 2>&1 || true)
		read -r e wn c < <(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p' <<<"$out" | tail -n 1)
		if [ -z "${e:-}" ]; then
			e=1 wn=0 c=0
			out="checkpatch produced no summary:
$out"
		fi
		printf '%-66s %6s %8s %6s\n' "${patch:0:66}" "$e" "$wn" "$c"
		if [ $((e + wn + c)) -gt 0 ]; then
			bad=$((bad + 1))
			printf '%s\n' "$out" >"$OUT/${patch%.patch}.checkpatch"
		fi
	done <"$OUT/series"
	echo
	if [ $bad -gt 0 ]; then
		error "checkpatch --strict: $bad patch(es) not clean (details: out/patches/*.checkpatch${ignore:+; ignored: $ignore})"
		for out in "$OUT"/*.checkpatch; do
			echo "---- $(basename "$out")" >&2
			{ grep -E '^(ERROR|WARNING|CHECK):' -A3 "$out" || true; } | head -n 40 >&2 || true
		done
	else
		log "(c) checkpatch --strict: clean${ignore:+ (ignored: $ignore)}"
	fi
}

main() {
	[ -d "$LINUX/.git" ] || die "no build/linux: run 'make tree' first"
	[ -n "$(entries)" ] || die "no series entries (series/NN-slug.msg + .files)"
	set_identity /dev/null  # for git am in check_am
	COVERED=$(mktemp)
	trap 'rm -f "$COVERED"' EXIT
	BUILD_RESULTS=()
	setup_work
	commit_series
	export_patches
	check_coverage
	check_am
	check_style
	if [ ${#BUILD_RESULTS[@]} -gt 0 ]; then
		echo "bisectability (BUILD_EACH=1):"
		printf '  %s\n' "${BUILD_RESULTS[@]}"
	fi
	if [ $ERRORS -gt 0 ]; then
		echo "make patches: $ERRORS problem(s)" >&2
		exit 1
	fi
	echo "make patches: $(grep -c . "$OUT/series") patches in out/patches, all checks passed"
}

main "$@"
