#!/bin/sh
# Installs what a third-party plugin author builds against, from this checkout into PREFIX (copies, never
# links back here, so the checkout can go away afterwards):
#   PREFIX/include/skillhost/skill_abi.h, skill_json.h         the C ABI headers
#   PREFIX/lib/pkgconfig/skillhost.pc                         `pkg-config --cflags skillhost` (relocatable)
#   PREFIX/share/skillhost/sdk/skillhost-sdk-<ABI>/           the Swift SDK: a SwiftPM package with SkillSDK
#                                                             and SkillCheck (scripts/sdk/Package.swift)
#   PREFIX/share/doc/skillhost/                               the guides (authoring.md first), and in
#                                                             examples/sysinfo/ a complete C plugin's source
# <ABI> is MAJOR.MINOR of skill_abi.h: each ABI gets its own SDK folder, and an older one stays for the plugins
# that use it. scripts/install.sh runs this; `skillhost sdk path` prints where the SDK is.
#
# Usage: scripts/install-sdk.sh PREFIX
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "install-sdk.sh: give the PREFIX to install into (e.g. ~/.local)" >&2; exit 2; }
case "$1" in -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
prefix=$1
header="$root/Sources/CSkillABI/include/skill_abi.h"
major=$(sed -n 's/^#define SKILL_ABI_VERSION_MAJOR \([0-9][0-9]*\).*/\1/p' "$header")
minor=$(sed -n 's/^#define SKILL_ABI_VERSION_MINOR \([0-9][0-9]*\).*/\1/p' "$header")
[ -n "$major" ] && [ -n "$minor" ] || { echo "install-sdk.sh: cannot read the ABI version from $header" >&2; exit 1; }
abi="$major.$minor"

# The C headers.
install -d -m 755 "$prefix/include/skillhost" "$prefix/lib/pkgconfig"
for file in skill_abi.h skill_json.h; do
    install -m 644 "$root/Sources/CSkillABI/include/$file" "$prefix/include/skillhost/$file"
done
# pkg-config: the prefix is found from the .pc file's own folder, so a copied prefix still works.
pc="$prefix/lib/pkgconfig/skillhost.pc"
cat > "$pc.tmp" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include/skillhost
sdkdir=\${prefix}/share/skillhost/sdk/skillhost-sdk-$abi

Name: skillhost
Description: SkillHost plugin ABI $abi: skill_abi.h and skill_json.h for C skill plugins
Version: $abi
Cflags: -I\${includedir}
PC
mv -f "$pc.tmp" "$pc"

# The Swift SDK package: sources copied (links followed), built in a temporary folder, then swapped in.
sdks="$prefix/share/skillhost/sdk"
sdk="$sdks/skillhost-sdk-$abi"
staging="$sdks/.skillhost-sdk-$abi.$$.tmp"
install -d -m 755 "$sdks"
rm -rf "$staging"
mkdir -p "$staging/Sources"
for target in CSkillABI SkillJSON SkillContract CPosixEvents SkillPosix SkillSDK JSONSchema StableHash ManifestCheck SkillCheck; do
    cp -RL "$root/Sources/$target" "$staging/Sources/$target"
done
cp "$root/scripts/sdk/Package.swift" "$staging/Package.swift"
printf '.build/\n.swiftpm/\n' > "$staging/.gitignore"
commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
printf '{"abi_version": "%s", "skillhost_commit": "%s"}\n' "$abi" "$commit" > "$staging/sdk.json"
cat > "$staging/README.md" <<README
# SkillHost SDK (plugin ABI $abi)

The package third-party skill plugins build against. \`skillhost new NAME\` writes a plugin package that
depends on it by path; \`skillhost sdk path\` prints this folder. Products:

- \`SkillSDK\`: what a plugin imports (the \`Skill\` protocol, \`SkillPlugin\`, the export line).
- \`SkillCheck\`: what a plugin's tests import (\`plugin.problems\`: the host's manifest checker).
- \`CSkillABI\`: the C ABI headers (also in $prefix/include/skillhost, \`pkg-config --cflags skillhost\`).

To publish it for authors who depend on it by URL: \`git init\` a copy of this folder, commit, tag it
(e.g. $abi.0), push, and scaffold with \`skillhost new NAME --sdk URL@$abi.0\`. The guide is
$prefix/share/doc/skillhost/authoring.md.
README
find "$staging" -type d -exec chmod 755 {} +
find "$staging" -type f -exec chmod 644 {} +
if [ -e "$sdk" ]; then
    mv "$sdk" "$staging.old"
fi
mv "$staging" "$sdk"
rm -rf "$staging.old"

# The guides.
install -d -m 755 "$prefix/share/doc/skillhost/skills"
install -m 644 "$root/README.md" "$prefix/share/doc/skillhost/README.md"
for doc in "$root"/docs/*.md; do install -m 644 "$doc" "$prefix/share/doc/skillhost/"; done
for doc in "$root"/docs/skills/*.md; do install -m 644 "$doc" "$prefix/share/doc/skillhost/skills/"; done
# The C example the guide points to (builds with `cc $(pkg-config --cflags skillhost) -shared -fPIC *.c`).
install -d -m 755 "$prefix/share/doc/skillhost/examples/sysinfo"
for file in "$root"/Plugins/sysinfo/*.c "$root"/Plugins/sysinfo/*.h; do
    install -m 644 "$file" "$prefix/share/doc/skillhost/examples/sysinfo/"
done
echo "==> installed the SDK (ABI $abi): $sdk, headers in $prefix/include/skillhost, $pc"
