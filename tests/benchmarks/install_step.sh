#!/usr/bin/env bash
# The Action's install step, cold and warm, on this machine (docs/performance.md, "The Action's
# install step"). Cold: what a miss does (a fresh venv, `pip install` of curator from source).
# Warm: what a hit does before curator starts: the key of curator's files, the extraction of
# the environment from a tarball compressed as actions/cache compresses it (zstd), and
# curator's first import. The download of that tarball from GitHub's cache service cannot be
# measured here. Needs farm-bench (or falls back to one `time` run each) and zstd.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/cold.sh" <<COLD
#!/usr/bin/env bash
set -e
rm -rf "$work/venv"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$src"
COLD
cat > "$work/warm.sh" <<WARM
#!/usr/bin/env bash
set -e
cd "$src"
find pyproject.toml curator -type f ! -path '*/__pycache__/*' -print0 \
  | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-40 > /dev/null
target=\$(mktemp -d "$work/restore.XXXX")
tar -xf "$work/venv.tzst" -C "\$target" --use-compress-program "zstd -d --long=30"
"\$target/venv/bin/python" -c "import curator.cli"
WARM
chmod +x "$work/cold.sh" "$work/warm.sh"
bench() { if command -v farm-bench >/dev/null; then farm-bench "$@"; else shift 5; time "$@"; fi; }
echo "--- cold: a fresh venv, pip install of curator"
bench -n 3 --timeout 600 -- "$work/cold.sh"
tar --posix -cf - -C "$work" venv | zstd -T0 --long=30 -q -o "$work/venv.tzst"
echo "--- the environment: $(du -sh "$work/venv" | cut -f1), compressed $(du -h "$work/venv.tzst" | cut -f1)"
echo "--- warm: key, extraction, first import"
bench -n 5 --timeout 300 -- "$work/warm.sh"
