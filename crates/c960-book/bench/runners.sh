# The runners (fastchess, cutechess-cli) built once from source into the
# cache, and the official books fetched into it: sourced by bench-books.sh
# and bench-resolution.sh after they set cache, official, books_url, the
# runners' repositories and refs, and say/die.

# checkout REPO REF DIR: a work tree of REPO at REF in DIR (kept when present).
checkout() {
  local repo=$1 ref=$2 dir=$3
  if [[ ! -d "$dir/.git" ]]; then
    rm -rf "$dir"
    git clone --quiet "$repo" "$dir"
  fi
  git -C "$dir" checkout --quiet "$ref" 2>/dev/null ||
    { git -C "$dir" fetch --quiet --tags origin && git -C "$dir" checkout --quiet "$ref"; } ||
    die "cannot check out $ref of $repo"
}

# build_fastchess: sets fastchess and fastchess_commit.
build_fastchess() {
  fastchess_dir="$cache/fastchess-$fastchess_ref"
  fastchess="$fastchess_dir/fastchess"
  if [[ ! -x "$fastchess" ]]; then
    say "== building fastchess $fastchess_ref from $fastchess_repo"
    checkout "$fastchess_repo" "$fastchess_ref" "$fastchess_dir"
    nice -n 10 make -C "$fastchess_dir" -j2 >"$cache/fastchess-build.log" 2>&1 ||
      die "fastchess did not build; see $cache/fastchess-build.log"
  fi
  fastchess_commit=$(git -C "$fastchess_dir" rev-parse HEAD)
  say "fastchess $fastchess_ref $fastchess_commit: $fastchess"
}

# build_cutechess: sets cutechess and cutechess_commit.
build_cutechess() {
  cutechess_dir="$cache/cutechess-$cutechess_ref"
  cutechess="$cutechess_dir/build/cutechess-cli"
  if [[ ! -x "$cutechess" ]]; then
    # cutechess 1.5 needs Qt 6 with Svg and Core5Compat (its CMakeLists dropped Qt 5) and CMake ≥ 3.20.
    local missing=() package
    for package in cmake qt6-base-dev qt6-svg-dev qt6-5compat-dev; do
      dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if ((${#missing[@]})); then
      if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        say "== installing ${missing[*]}"
        apt-get install -y "${missing[@]}" >"$cache/apt.log" 2>&1 || die "apt-get install ${missing[*]} failed; see $cache/apt.log"
      else
        die "cutechess-cli needs ${missing[*]} (apt-get install -y ${missing[*]})"
      fi
    fi
    say "== building cutechess-cli $cutechess_ref from $cutechess_repo"
    checkout "$cutechess_repo" "$cutechess_ref" "$cutechess_dir"
    {
      nice -n 10 cmake -S "$cutechess_dir" -B "$cutechess_dir/build" -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF &&
        nice -n 10 cmake --build "$cutechess_dir/build" --target cli -j2
    } >"$cache/cutechess-build.log" 2>&1 || die "cutechess-cli did not build; see $cache/cutechess-build.log"
  fi
  cutechess_commit=$(git -C "$cutechess_dir" rev-parse HEAD)
  say "cutechess-cli $cutechess_ref $cutechess_commit: $cutechess"
}

# fetch_official NAME...: official-stockfish/books' NAME.epd into $official
# (sets official to its absolute path).
fetch_official() {
  local name
  mkdir -p "$official"
  official=$(cd "$official" && pwd)
  for name in "$@"; do
    if [[ ! -s "$official/$name.epd" ]]; then
      say "== fetching $name.epd.zip from $books_url"
      curl -sSfL "$books_url/$name.epd.zip" -o "$official/$name.epd.zip.part" ||
        die "cannot fetch $books_url/$name.epd.zip (set C960_OFFICIAL_BOOKS to a directory holding $name.epd)"
      mv "$official/$name.epd.zip.part" "$official/$name.epd.zip"
      unzip -o -q "$official/$name.epd.zip" "$name.epd" -d "$official" || die "$official/$name.epd.zip holds no $name.epd"
    fi
  done
}

# build_stockfish DEBIAN: the same Stockfish as DEBIAN (Debian's build of
# Stockfish 15.1, compiled for any x86-64 CPU) compiled from its source for
# this machine's AVX2 with profile-guided optimization, into the cache, with
# the network exported from DEBIAN itself; sets stockfish. The build must
# search exactly the nodes DEBIAN does on Stockfish's own `bench` (its
# signature), or it is refused: at fixed nodes it then plays the same games,
# faster. Without AVX2 (or on another CPU family) DEBIAN is used as it is;
# where the build fails, the message names C960_STOCKFISH=DEBIAN to play
# with DEBIAN instead.
build_stockfish() {
  local debian=$1 repo=${C960_STOCKFISH_REPO:-https://github.com/official-stockfish/Stockfish.git}
  local ref=sf_15.1 arch=x86-64-avx2 dir net ours theirs
  stockfish=$debian
  if [[ $(uname -m) != x86_64 ]] || ! grep -qw avx2 /proc/cpuinfo; then
    say "Stockfish: $debian (no AVX2 here to build for)"
    return
  fi
  dir="$cache/stockfish-$ref-$arch"
  local instead="(or set C960_STOCKFISH=$debian to play with Debian's build)"
  if [[ ! -x "$dir/src/stockfish" ]]; then
    say "== building Stockfish $ref for $arch from $repo"
    rm -rf "$dir"
    git clone --quiet --depth 1 --branch "$ref" "$repo" "$dir" 2>/dev/null ||
      git clone --quiet --branch "$ref" "$repo" "$dir" || die "cannot clone $ref of $repo $instead"
    net=$(grep -o 'nn-[0-9a-f]*\.nnue' "$dir/src/evaluate.h" | head -1)
    [[ -n "$net" ]] || die "$repo $ref names no network in src/evaluate.h $instead"
    printf 'export_net %s\nquit\n' "$dir/src/$net" | "$debian" >/dev/null ||
      die "$debian could not export its network $instead"
    [[ -s "$dir/src/$net" && "$(sha256sum "$dir/src/$net" | cut -c1-12)" == "${net:3:12}" ]] ||
      die "$debian does not hold the network $net that $ref names $instead"
    nice -n 10 make -C "$dir/src" -j2 profile-build ARCH="$arch" COMP=gcc >"$cache/stockfish-build.log" 2>&1 ||
      { rm -f "$dir/src/stockfish"; die "Stockfish $ref did not build; see $cache/stockfish-build.log $instead"; }
  fi
  # The signature, and how much faster the build searches (nodes per
  # second, the median of three alternating runs of each).
  local run nps_ours=() nps_theirs=()
  for run in 1 2 3; do
    theirs=$("$debian" bench 2>&1 >/dev/null | awk -F: '/Nodes searched/ {n=$2} /Nodes\/second/ {print n+0, $2+0}') ||
      die "$debian bench failed"
    ours=$("$dir/src/stockfish" bench 2>&1 >/dev/null | awk -F: '/Nodes searched/ {n=$2} /Nodes\/second/ {print n+0, $2+0}') ||
      die "$dir/src/stockfish bench failed $instead"
    [[ -n "$ours" && -n "$theirs" && "${ours% *}" == "${theirs% *}" ]] ||
      die "$dir/src/stockfish searches ${ours% *} nodes on bench, $debian ${theirs% *}: not the same engine $instead"
    nps_ours+=("${ours#* }")
    nps_theirs+=("${theirs#* }")
  done
  local median_ours median_theirs
  median_ours=$(printf '%s\n' "${nps_ours[@]}" | sort -n | sed -n 2p)
  median_theirs=$(printf '%s\n' "${nps_theirs[@]}" | sort -n | sed -n 2p)
  say "Stockfish $ref for $arch: bench signature ${ours% *} (the same as $debian), $(awk -v a="$median_ours" -v b="$median_theirs" 'BEGIN {printf "%.2f", a / b}')× its nodes per second: $dir/src/stockfish"
  stockfish="$dir/src/stockfish"
}
