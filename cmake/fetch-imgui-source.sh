#!/usr/bin/env bash
# Dear ImGui's core sources for the WebAssembly demos. Debian's libimgui-dev ships headers, a
# native libimgui.a and the backend sources but not imgui*.cpp, so they come from Debian's source
# package (`apt-get source`), with a private deb-src list: /etc/apt stays untouched and nothing
# is committed. Usage: fetch-imgui-source.sh OUT_DIR   (prints the source folder)
set -euo pipefail
out=$(realpath -m "$1")
if [ -f "$out/imgui/imgui.cpp" ]; then echo "$out/imgui"; exit 0; fi
apt=$out/apt
mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$apt/parts/debian.sources"
o=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts" -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache")
apt-get "${o[@]}" update >/dev/null
(cd "$apt" && apt-get "${o[@]}" source --download-only imgui >/dev/null 2>&1)
mkdir -p "$out/imgui"
tar -xJf "$apt"/imgui_*.orig.tar.xz -C "$out/imgui" --strip-components=1
echo "$out/imgui"
