#!/usr/bin/env bash
# Offline checks of terraform/ (no provider plugins, no AWS account): `tofu fmt -check -recursive` and hclcheck
# (every .tf parses; every var./local./module./data./aws_* reference resolves) on the module and its examples.
# Builds the tools first if they are not cached (build.sh). Exit 0 when everything passes.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
tools="$(bash "$here/build.sh" | tail -1)"

cd "$root"
# A fixed empty CLI configuration: no user's ~/.tofurc or TF_CLI_CONFIG_FILE changes what fmt does.
export TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1
echo "== tofu fmt -check -recursive terraform/ ($("$tools/tofu" version | sed -n 1p))"
"$tools/tofu" fmt -check -recursive -diff terraform/
echo "== hclcheck"
modules=(terraform)
for example in terraform/examples/*/; do
  modules+=("${example%/}")
done
"$tools/hclcheck" "${modules[@]}"
echo "terraform checks passed"
