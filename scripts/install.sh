#!/usr/bin/env bash
# Builds skillhost and the bundled plugins in release mode and installs them:
#   the binary    -> $PREFIX/bin/skillhost            (PREFIX defaults to ~/.local), and skillhost-sandbox beside it
#   the SDK       -> $PREFIX/include/skillhost/ (C headers), $PREFIX/lib/pkgconfig/skillhost.pc,
#                    $PREFIX/share/skillhost/sdk/skillhost-sdk-<ABI>/ (the Swift SDK package), $PREFIX/share/doc/skillhost/
#                    (scripts/install-sdk.sh; what third-party plugin authors build against, docs/authoring.md)
#   the plugins   -> $SKILLHOST_PLUGINS               (default ~/.local/share/skillhost/plugins)
#   the registry  -> $SKILLHOST_REGISTRY, seeded from skill_registry.json only when it does not exist yet
#                    (default ~/.config/skillhost/skill_registry.json); an existing registry is never touched.
#
# Usage: scripts/install.sh [--prebuilt BINDIR PLUGINDIR]
#   --prebuilt    install skillhost and skillhost-sandbox from BINDIR and the plugin files from PLUGINDIR as
#                 they are, without building (the tests install their debug build into a temporary prefix)
set -euo pipefail
cd "$(dirname "$0")/.."

bindir=.build/static/release
plugindir=.build/plugins-release
build=1
if [ "${1:-}" = "--prebuilt" ]; then
    [ $# -eq 3 ] || { echo "install.sh: --prebuilt needs BINDIR and PLUGINDIR" >&2; exit 2; }
    bindir=$2
    plugindir=$3
    build=0
elif [ $# -gt 0 ]; then
    echo "install.sh: unknown argument $1; usage: scripts/install.sh [--prebuilt BINDIR PLUGINDIR]" >&2
    exit 2
fi

prefix="${PREFIX:-$HOME/.local}"
plugins="${SKILLHOST_PLUGINS:-${XDG_DATA_HOME:-$HOME/.local/share}/skillhost/plugins}"
registry="${SKILLHOST_REGISTRY:-${XDG_CONFIG_HOME:-$HOME/.config}/skillhost/skill_registry.json}"

if [ "$build" = 1 ]; then
    bash scripts/ensure-deps.sh
    echo "==> building skillhost (release; Swift runtime and Foundation linked statically, see docs/architecture.md)"
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product skillhost
    bash scripts/build-sandbox-helper.sh --release "$bindir"
    echo "==> building the bundled plugins (release)"
    bash scripts/build-plugins.sh --release "$plugindir"
fi

install -d -m 755 "$prefix/bin" "$plugins" "$(dirname "$registry")"
install -m 755 "$bindir/skillhost" "$prefix/bin/skillhost"
install -m 755 "$bindir/skillhost-sandbox" "$prefix/bin/skillhost-sandbox"
bash scripts/install-sdk.sh "$prefix"
for plugin in "$plugindir"/*.so; do
    install -m 644 "$plugin" "$plugins/$(basename "$plugin")"
done
if [ ! -e "$registry" ]; then
    install -m 644 skill_registry.json "$registry"
    echo "==> seeded the registry at $registry"
fi
echo "==> installed $prefix/bin/skillhost and $(ls "$plugins" | wc -l) plugin file(s) in $plugins"
"$prefix/bin/skillhost" --plugins "$plugins" --registry "$registry" rescan
# The installer built these files itself, so it pins their hashes: a later swap of any of them is refused.
for plugin in "$plugindir"/*.so; do
    id=$(basename "$plugin" .so)
    "$prefix/bin/skillhost" trust "$id" --plugins "$plugins" --registry "$registry"
done
# The bundled instruction skills (Agent Skills folders) go into the skills folder; an installed copy is
# replaced only when it differs, so a user's edits to other skills there are never touched.
skills="${SKILLHOST_SKILLS:-${XDG_DATA_HOME:-$HOME/.local/share}/skillhost/skills}"
install -d -m 755 "$skills"
for folder in Plugins/Instructions/*/; do
    name=$(basename "$folder")
    if ! diff -rq "$folder" "$skills/$name" >/dev/null 2>&1; then
        rm -rf "$skills/$name"
        "$prefix/bin/skillhost" add "$folder" --skills "$skills" --plugins "$plugins" --registry "$registry"
    fi
done
# pkg-config finds skillhost.pc only in its search path: say how when the prefix is not in it.
case ":$(pkg-config --variable pc_path pkg-config 2>/dev/null || true):${PKG_CONFIG_PATH:-}:" in
    *":$prefix/lib/pkgconfig:"*) ;;
    *) echo "==> for C plugins: export PKG_CONFIG_PATH=$prefix/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH} (then 'pkg-config --cflags skillhost' works)" ;;
esac
