//go:build integration

package class

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"

	"github.com/oncesim/once/report/lang"
)

// A student who answers, then reloads the page (F5, a phone restoring a
// discarded tab, the back button) gets the page at / again: the answer's
// POST is not sent a second time, so the reload shows the class as it is
// — no "already answered" refusal, no browser's resubmission prompt.
func TestIntegrationReloadAfterAnswerSendsNoPost(t *testing.T) {
	bin := needChromium(t)
	lang.Set(lang.English)
	dir := t.TempDir()
	srv := serve(t, Options{Dir: dir, Listen: "127.0.0.1:0", ClassKey: testKey, Steps: testSteps, MaxStudents: DefaultMaxStudents})

	l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(false).UserDataDir(filepath.Join(dir, "chromium"))
	t.Cleanup(l.Cleanup)
	t.Cleanup(l.Kill)
	browser := rod.New().ControlURL(l.MustLaunch()).Timeout(2 * time.Minute).MustConnect()
	t.Cleanup(browser.MustClose)

	p := browser.MustIncognito().MustPage(srv.base + "/")
	p.MustElement(`input[name="name"]`).MustInput("Ada")
	p.MustElement("#join").MustClick()
	waitFor(t, p, "Ada joined", phaseIs(Predict))
	answerIn(t, p, 1, "a")

	p.MustReload()
	waitFor(t, p, "Ada's page after the reload", stateIs(1, "answered"))
	if refused := p.MustEval(`() => document.querySelectorAll(".refused").length`).Int(); refused != 0 {
		t.Errorf("the reload sent the answer again: the page shows %d refusal(s)\n%s", refused, p.MustElement("body").MustText())
	}
	if path := p.MustEval(`() => location.pathname`).Str(); path != "/" {
		t.Errorf("the page's address after an answer and a reload is %s, want /", path)
	}
}
