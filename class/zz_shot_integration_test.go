//go:build integration

package class

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

func TestIntegrationZZShots(t *testing.T) {
	bin := needChromium(t)
	dir := t.TempDir()
	o := Options{Dir: dir, Listen: "127.0.0.1:0", ClassKey: testKey, Steps: "two-generals,double-billing", Code: "k7q2"}
	srv := serve(t, o)
	l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(false).UserDataDir(filepath.Join(dir, "chromium"))
	t.Cleanup(l.Cleanup)
	t.Cleanup(l.Kill)
	browser := rod.New().ControlURL(l.MustLaunch()).Timeout(2 * time.Minute).MustConnect()
	t.Cleanup(browser.MustClose)
	p := browser.MustIncognito().MustPage(srv.base + "/?code=k7q2")
	p.MustSetViewport(390, 844, 2, true)
	p.MustElement(`input[name="name"]`).MustInput("Ada")
	p.MustElement("#join").MustClick()
	waitFor(t, p, "joined", phaseIs(Predict))
	shot := func(p *rod.Page, name string) {
		data, _ := p.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		os.WriteFile("/tmp/shot-"+name+".png", data, 0o644)
	}
	shot(p, "predict")
	answerIn(t, p, 1, "a")
	tp := browser.MustIncognito().MustPage(srv.url)
	tp.MustSetViewport(1280, 900, 1, false)
	tp.MustElement("#advance").MustClick()
	waitFor(t, p, "ev", phaseIs(Evidence))
	shot(p, "evidence")
	tp.MustElement("#advance").MustClick()
	waitFor(t, p, "rev", phaseIs(Revealed))
	shot(p, "revealed")
	tp.MustNavigate(srv.base + "/teacher")
	waitFor(t, tp, "dash", phaseIs(Revealed))
	shot(tp, "dashboard")
	tp.MustNavigate(srv.base + "/teacher?projector=1")
	waitFor(t, tp, "proj", phaseIs(Revealed))
	shot(tp, "projector")
}
