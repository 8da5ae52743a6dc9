#!/usr/bin/env bash
# Builds skillhost and the bundled plugins in release mode and installs them:
#   the binary    -> $PREFIX/bin/skillhost            (PREFIX defaults to ~/.local), and skillhost-sandbox beside it
#   the plugins   -> $SKILLHOST_PLUGINS               (default ~/.local/share/skillhost/plugins)
#   the registry  -> $SKILLHOST_REGISTRY, seeded from skill_registry.json only when it does not exist yet
#                    (default ~/.config/skillhost/skill_registry.json); an existing registry is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-deps.sh

prefix="${PREFIX:-$HOME/.local}"
plugins="${SKILLHOST_PLUGINS:-${XDG_DATA_HOME:-$HOME/.local/share}/skillhost/plugins}"
registry="${SKILLHOST_REGISTRY:-${XDG_CONFIG_HOME:-$HOME/.config}/skillhost/skill_registry.json}"

echo "==> building skillhost (release; Swift runtime and Foundation linked statically, see docs/architecture.md)"
swift build -c release --static-swift-stdlib --scratch-path .build/static --product skillhost
bash scripts/build-sandbox-helper.sh --release .build/static/release
echo "==> building the bundled plugins (release)"
bash scripts/build-plugins.sh --release .build/plugins-release

install -d -m 755 "$prefix/bin" "$plugins" "$(dirname "$registry")"
install -m 755 .build/static/release/skillhost "$prefix/bin/skillhost"
install -m 755 .build/static/release/skillhost-sandbox "$prefix/bin/skillhost-sandbox"
for plugin in .build/plugins-release/*.so; do
    install -m 644 "$plugin" "$plugins/$(basename "$plugin")"
done
if [ ! -e "$registry" ]; then
    install -m 644 skill_registry.json "$registry"
    echo "==> seeded the registry at $registry"
fi
echo "==> installed $prefix/bin/skillhost and $(ls "$plugins" | wc -l) plugin file(s) in $plugins"
"$prefix/bin/skillhost" --plugins "$plugins" --registry "$registry" rescan
# The installer built these files itself, so it pins their hashes: a later swap of any of them is refused.
for plugin in .build/plugins-release/*.so; do
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
