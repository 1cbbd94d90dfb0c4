#!/usr/bin/env bash
# Provisions the project's Node.js (the version in .node-version, Node 24 LTS) without a system
# install: fetches the npm registry's `node-linux-<arch>` package (the official binary plus its C
# headers) with the machine's npm, unpacks it into .runtime/ (gitignored) and puts it first on PATH.
# It also points native builds at those headers (npm_package_config_node_gyp_nodedir, node-gyp's
# own variable since npm 11; it outranks a `nodedir` in ~/.npmrc, and npm does not warn about it),
# so node-gyp compiles addons for this Node and never falls back to another Node's headers or a download.
#
#   source scripts/provision-node.sh        # in this shell: PATH and the headers' variable exported
#   eval "$(scripts/provision-node.sh)"     # the same, from a script that cannot source
#   scripts/provision-node.sh --check       # exit 0 when the node on PATH already is that version
#
# A machine whose `node` already is that major version needs none of this. Needs: bash, tar, and
# npm (any recent one; once Node 24 is first on PATH, npm itself runs on it). Linux x64 and arm64.
# Network: the npm registry, once; afterwards the unpacked copy is reused.

_pn_main() {
  local root want_file want major arch dir tmp tgz
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want_file="$root/.node-version"
  want="$(tr -d ' \n\r' <"$want_file")" || { echo "provision-node: cannot read $want_file" >&2; return 1; }
  major="${want%%.*}"

  if [ "${1:-}" = "--check" ]; then
    [ "$(node -p 'process.versions.node' 2>/dev/null)" = "$want" ]
    return
  fi

  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) arch=x64 ;;
    Linux-aarch64 | Linux-arm64) arch=arm64 ;;
    *) echo "provision-node: no node-linux package for $(uname -s) $(uname -m); install Node $major from nodejs.org" >&2; return 1 ;;
  esac

  dir="$root/.runtime/node-v$want-linux-$arch"
  if [ ! -x "$dir/bin/node" ] || [ "$("$dir/bin/node" -p 'process.versions.node' 2>/dev/null)" != "$want" ]; then
    command -v npm >/dev/null || { echo "provision-node: npm is needed to fetch node-linux-$arch@$want" >&2; return 1; }
    echo "provision-node: fetching node-linux-$arch@$want from the npm registry…" >&2
    mkdir -p "$root/.runtime" && tmp="$(mktemp -d "$root/.runtime/.fetch.XXXXXX")" || return 1
    # `npm pack` downloads the package tarball and checks it against the registry's integrity hash.
    # Run from the temporary folder so the project's own npm configuration plays no part.
    if ! tgz="$(cd "$tmp" && npm pack --silent "node-linux-$arch@$want" 2>/dev/null | tail -n 1)" || [ ! -f "$tmp/$tgz" ]; then
      echo "provision-node: npm pack node-linux-$arch@$want failed" >&2
      rm -rf "$tmp"
      return 1
    fi
    mkdir -p "$tmp/unpacked"
    tar -xzf "$tmp/$tgz" -C "$tmp/unpacked" --strip-components=1 || { rm -rf "$tmp"; return 1; }
    chmod +x "$tmp/unpacked/bin/node"
    if [ "$("$tmp/unpacked/bin/node" -p 'process.versions.node')" != "$want" ] || [ ! -f "$tmp/unpacked/include/node/node_api.h" ]; then
      echo "provision-node: the package did not hold a working Node $want with its headers" >&2
      rm -rf "$tmp"
      return 1
    fi
    rm -rf "$dir"
    mv "$tmp/unpacked" "$dir"
    rm -rf "$tmp"
  fi
  # A stable name for this Node (.runtime/node -> node-v<version>-linux-<arch>), so a service
  # definition can name the project's Node by one path across upgrades (deploy/*.service).
  if [ "$(readlink "$root/.runtime/node" 2>/dev/null)" != "node-v$want-linux-$arch" ]; then
    ln -sfn "node-v$want-linux-$arch" "$root/.runtime/node.tmp" && mv -T "$root/.runtime/node.tmp" "$root/.runtime/node"
  fi
  _PN_BIN="$dir/bin"
  _PN_DIR="$dir"
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: change the caller's environment.
  if _pn_main "$@" && [ -n "${_PN_BIN:-}" ]; then
    case ":$PATH:" in *":$_PN_BIN:"*) ;; *) PATH="$_PN_BIN:$PATH" ;; esac
    export PATH
    export npm_package_config_node_gyp_nodedir="$_PN_DIR"
    hash -r 2>/dev/null || true
    echo "provision-node: node $(node -v) from $_PN_BIN" >&2
    unset _PN_BIN _PN_DIR
  else
    unset _PN_BIN _PN_DIR
    return 1 2>/dev/null
  fi
else
  set -euo pipefail
  if [ "${1:-}" = "--check" ]; then _pn_main --check; exit; fi
  _pn_main "$@"
  printf 'export PATH=%q:"$PATH"\nexport npm_package_config_node_gyp_nodedir=%q\n' "$_PN_BIN" "$_PN_DIR"
fi
