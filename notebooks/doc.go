// Package notebooks holds levlab's GoNB notebooks (*.ipynb in this
// folder, committed without outputs) and the test that runs them: every
// notebook executed headlessly by nbconvert in the GoNB kernel at the quick
// scale, its outputs checked (no error, every main cell printed or showed
// something, every figure cell drew a chart), and the executed notebook,
// exported to HTML, opened in headless Chromium (every chart drawn, no
// console error, no request).
//
// The notebooks call lev, experiments, report and the helper package nb;
// they hold no algorithm code. scripts/setup-notebooks.sh installs what they
// need (Debian's Jupyter packages, GoNB and goimports as pinned in go.mod,
// the kernel); without it the test skips, unless LEVLAB_REQUIRE_NOTEBOOKS=1
// (make test), where it fails.
package notebooks
