# Shared by scripts/serve and scripts/test: each step installs what is
# missing, skips what is present, and says which.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

TRUNK_VERSION=0.21.14

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need_wasm_target() {
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "wasm32 target: present"
  else
    say "wasm32 target: installing"
    rustup target add wasm32-unknown-unknown
  fi
}

need_trunk() {
  if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
    say "trunk $TRUNK_VERSION: present"
  else
    say "trunk $TRUNK_VERSION: installing (a few minutes)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
  fi
}

# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
# It is installed without --locked: one of its locked dependencies is not in
# the registry.
need_wasm_bindgen() {
  local version
  version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
  if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $version" ]; then
    say "wasm-bindgen-cli $version: present"
  else
    say "wasm-bindgen-cli $version: installing (a few minutes)"
    cargo install wasm-bindgen-cli --version "$version"
  fi
}

need_chromium() {
  if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    say "chromium and chromedriver: present"
  else
    say "chromium and chromedriver: installing from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-dejavu-core
  fi
}

# Firefox ESR and WebKitGTK for tests/e2e/engines.test.mjs: Firefox over
# WebDriver BiDi, WebKit through WebKitWebDriver driving MiniBrowser, which
# needs an X server (Xvfb). Bookworm puts WebKitWebDriver in /usr/bin;
# other releases only in /usr/lib/<multiarch>/webkit2gtk-4.1/, beside
# MiniBrowser, so that folder is looked in too.
webkit_driver() {
  command -v WebKitWebDriver || ls /usr/lib/*-linux-gnu/webkit2gtk-4.1/WebKitWebDriver 2>/dev/null | head -n 1
}

need_other_engines() {
  if command -v firefox-esr >/dev/null && [ -n "$(webkit_driver)" ] && command -v Xvfb >/dev/null; then
    say "firefox-esr, WebKitWebDriver and Xvfb: present"
  else
    say "firefox-esr, WebKitWebDriver and Xvfb: installing from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr webkit2gtk-driver xvfb
  fi
}

# playwright-core and the test harness need Node.js 20.11 or later.
need_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    say "node and npm: installing from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
  fi
  if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 11) ? 0 : 1)'; then
    say "node $(node --version): present"
  else
    echo "Node.js $(node --version) is too old: the tests need 20.11 or later." >&2
    exit 1
  fi
}

# playwright-core and axe-core for the tests, binaryen's wasm-opt for the build.
need_node_modules() {
  need_node
  # npm writes node_modules/.package-lock.json on every install: newer than
  # the committed lock means the install matches it.
  if [ node_modules/.package-lock.json -nt package-lock.json ]; then
    say "npm test dependencies: present"
  else
    say "npm test dependencies: installing from package-lock.json"
    npm ci --no-audit --no-fund
  fi
}

build_page() {
  say "building the page (trunk build --release)"
  # --offline: use the tools installed above, never download any.
  trunk build --release --offline
}

# The project's own Python virtual environment, .venv, with the libraries
# the exports are checked against (tests/python/requirements.txt). The stamp
# is written after a successful install: newer than the requirements means
# the environment matches them.
need_python_venv() {
  if [ .venv/requirements.stamp -nt tests/python/requirements.txt ]; then
    say "python test environment (.venv): present"
    return
  fi
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    say "python3-venv: installing from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
  fi
  say "python test environment (.venv): installing tests/python/requirements.txt"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
  touch .venv/requirements.stamp
}
