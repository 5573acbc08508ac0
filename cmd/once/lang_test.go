package main

import (
	"bytes"
	"strings"
	"testing"
)

func runLang(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := execute(args, &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// The locale picks the language when --lang does not: LANG=ro_RO.UTF-8
// prints what --lang ro prints, and --lang wins over the locale.
func TestLangFromLocale(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "")
	ro, _, code := runLang(t, "explain", "double-billing", "--lang", "ro")
	en, _, _ := runLang(t, "explain", "double-billing", "--lang", "en")
	if code != 0 || ro == en || !strings.Contains(ro, "Povestea") {
		t.Fatalf("--lang ro: exit %d, output not Romanian:\n%s", code, ro)
	}
	t.Setenv("LANG", "ro_RO.UTF-8")
	if got, _, _ := runLang(t, "explain", "double-billing"); got != ro {
		t.Errorf("LANG=ro_RO.UTF-8 differs from --lang ro:\n%s", got)
	}
	if got, _, _ := runLang(t, "explain", "double-billing", "--lang", "en"); got != en {
		t.Errorf("--lang en under LANG=ro_RO.UTF-8 is not English:\n%s", got)
	}
	t.Setenv("LC_MESSAGES", "ru_RU.UTF-8")
	ru, _, _ := runLang(t, "explain", "double-billing", "--lang", "ru")
	if got, _, _ := runLang(t, "explain", "double-billing"); got != ru || !strings.Contains(ru, "История") {
		t.Errorf("LC_MESSAGES=ru_RU.UTF-8 must win over LANG and print Russian:\n%s", got)
	}
	t.Setenv("LC_ALL", "de_DE.UTF-8") // not a language of once: English
	if got, _, _ := runLang(t, "explain", "double-billing"); got != en {
		t.Errorf("LC_ALL=de_DE.UTF-8 must print English:\n%s", got)
	}
}

// JSON is a contract: the same bytes in every language.
func TestJSONStaysEnglish(t *testing.T) {
	commands := [][]string{
		{"run", "double-billing", "--format", "json"},
		{"run", "double-billing", "--format", "json", "--check"},
		{"list", "--format", "json"},
		{"matrix", "double-billing", "--seeds", "20", "--format", "json"},
		// (explore's JSON carries elapsed wall-clock time, so it is left out.)
	}
	for _, args := range commands {
		en, _, codeEn := runLang(t, append(args, "--lang", "en")...)
		if codeEn == 2 || !strings.HasPrefix(en, "{") {
			t.Fatalf("%v: exit %d, not JSON:\n%s", args, codeEn, en)
		}
		for _, l := range []string{"ro", "ru"} {
			got, _, code := runLang(t, append(args, "--lang", l)...)
			if got != en || code != codeEn {
				t.Errorf("%v --lang %s: JSON differs from English (exit %d vs %d)", args, l, code, codeEn)
			}
		}
	}
}

// The student-facing text is translated: run's table, list's summaries.
func TestRunAndListTranslated(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	out, _, code := runLang(t, "run", "double-billing", "--lang", "ru", "--semantics", "alo")
	for _, want := range []string{"5 операций", "семантика", "итог", "гарантия семантики", "gateway списывает деньги"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("run --lang ru: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	out, _, _ = runLang(t, "list", "--lang", "ro")
	if !strings.Contains(out, "gateway-ul taxează cardul") {
		t.Errorf("list --lang ro: summary not Romanian:\n%s", out)
	}
}

func TestBadLang(t *testing.T) {
	out, errOut, code := runLang(t, "explain", "double-billing", "--lang", "de")
	if code != 2 || out != "" || errOut != "once: --lang \"de\": want en, ro or ru\n" {
		t.Errorf("--lang de: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
