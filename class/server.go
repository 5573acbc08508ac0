package class

import (
	"bytes"
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lessonview"
)

//go:embed assets
var assets embed.FS

// codeSpan is a span of text in backquotes, as the lesson's texts mark
// commands and code.
var codeSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })

// withCode is text as HTML, its backquoted spans as <code>.
func withCode(text string) template.HTML {
	return template.HTML(codeSpan().ReplaceAllString(template.HTMLEscapeString(text), "<code>$1</code>"))
}

// pages are the class's page templates, parsed on first use (not at
// start-up, which every command of the binary pays).
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"code": withCode,
		"t":    lang.T,
		"tf": func(id string, kv ...any) string {
			data := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				data[kv[i].(string)] = kv[i+1]
			}
			return lang.Tf(id, data)
		},
	}).ParseFS(assets, "assets/pages.html"))
})

// The cookies a browser holds: a student's session, the instructor's token.
const (
	sessionCookie = "once_class_session"
	teacherCookie = "once_class_teacher"
)

// Handler serves the class: the students' pages at /, the instructor's
// under /teacher (the instructor's token required), the embedded style
// and script under /static. No page loads anything from elsewhere.
func (cl *Class) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", cl.home)
	mux.HandleFunc("POST /join", cl.join)
	mux.HandleFunc("POST /answer", cl.answer)
	mux.HandleFunc("GET /tick", cl.tickHandler)
	mux.HandleFunc("GET /diagram/{k}", cl.diagram)
	mux.HandleFunc("GET /static/{file}", static)
	mux.HandleFunc("GET /teacher", cl.teacherPage)
	mux.HandleFunc("GET /teacher/panel", cl.teacherOnly(cl.panel))
	mux.HandleFunc("POST /teacher/advance", cl.teacherOnly(cl.advance))
	mux.HandleFunc("POST /teacher/release", cl.teacherOnly(cl.release))
	mux.HandleFunc("GET /teacher/roster.csv", cl.teacherOnly(cl.rosterCSV))
	mux.HandleFunc("GET /teacher/questions.csv", cl.teacherOnly(cl.questionsCSV))
	mux.HandleFunc("GET /teacher/results.zip", cl.teacherOnly(cl.resultsZip))
	return securityHeaders(mux)
}

// securityHeaders keeps every page to its own origin: nothing loaded from
// elsewhere, no framing, no caching of a student's answers.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// static serves the embedded style and script.
func static(w http.ResponseWriter, r *http.Request) {
	types := map[string]string{"style.css": "text/css; charset=utf-8", "class.js": "text/javascript; charset=utf-8"}
	file := r.PathValue("file")
	data, err := assets.ReadFile("assets/" + file)
	if types[file] == "" || err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", types[file])
	w.Write(data)
}

// render writes a page of the templates with status.
func render(w http.ResponseWriter, status int, name string, data any) {
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		log.Printf("once class: %s: %v", name, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// fail answers an error the server made (not the user's) with one line.
func fail(w http.ResponseWriter, err error) {
	log.Printf("once class: %v", err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// formulaStart are the characters a spreadsheet reads as the start of a
// formula: a name starting with one would run in the instructor's
// spreadsheet when roster.csv is opened (CSV injection), so it is refused.
const formulaStart = "=+-@"

// joinPage is the join form's data.
type joinPage struct {
	Lang, Title, Notice, Code, Name string
	NeedCode                        bool
}

// student is the student whose browser sent r, nil when none.
func (cl *Class) studentOf(r *http.Request) (*student, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil, nil
	}
	return cl.st.bySession(c.Value)
}

// home is a student's page, or the join form for a browser without a
// session.
func (cl *Class) home(w http.ResponseWriter, r *http.Request) {
	s, err := cl.studentOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	if s == nil {
		render(w, http.StatusOK, "join", joinPage{Lang: string(lang.Current()), Title: lang.T("class.join_title"),
			NeedCode: cl.code != "", Code: r.URL.Query().Get("code")})
		return
	}
	cl.studentPage(w, r, s, http.StatusOK, "", "notice")
}

// join adds the student the form names and gives the browser its session.
func (cl *Class) join(w http.ResponseWriter, r *http.Request) {
	name := lesson.StudentName(r.PostFormValue("name"))
	page := joinPage{Lang: string(lang.Current()), Title: lang.T("class.join_title"), NeedCode: cl.code != "",
		Code: r.PostFormValue("code"), Name: name}
	refuse := func(status int, notice string) {
		page.Notice = notice
		render(w, status, "join", page)
	}
	if cl.code != "" && subtle.ConstantTimeCompare([]byte(strings.ToLower(strings.TrimSpace(page.Code))), []byte(strings.ToLower(cl.code))) != 1 {
		refuse(http.StatusForbidden, lang.T("class.bad_code"))
		return
	}
	if lesson.CheckName(name) != nil || strings.ContainsRune(formulaStart, []rune(name)[0]) {
		refuse(http.StatusBadRequest, lang.T("class.bad_name"))
		return
	}
	session := randomToken(26)
	switch err := cl.st.join(name, session, cl.max); {
	case errors.Is(err, errNameTaken):
		refuse(http.StatusConflict, lang.Tf("class.name_taken", map[string]any{"Name": name}))
		return
	case errors.Is(err, errFull):
		refuse(http.StatusForbidden, lang.Tf("class.full", map[string]any{"N": cl.max}))
		return
	case err != nil:
		fail(w, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: session, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: 7 * 24 * 3600})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// answer records the answer the form carries, then shows the page again:
// with the refusal when it was refused (closed, answered, not a choice).
func (cl *Class) answer(w http.ResponseWriter, r *http.Request) {
	s, err := cl.studentOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	if s == nil {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	n, _ := strconv.Atoi(r.PostFormValue("n"))
	err = cl.Answer(s.Name, r.PostFormValue("step"), n, r.PostFormValue("letter"))
	switch {
	case err == nil:
		cl.studentPage(w, r, s, http.StatusOK, lang.T("class.recorded"), "notice")
	case errors.Is(err, errClosed):
		cl.studentPage(w, r, s, http.StatusConflict, lang.T("class.closed"), "refused")
	case errors.Is(err, errAnswered):
		cl.studentPage(w, r, s, http.StatusConflict, lang.T("class.answered"), "refused")
	case errors.Is(err, errBadInput):
		cl.studentPage(w, r, s, http.StatusBadRequest, lang.T("class.bad_answer"), "refused")
	default:
		fail(w, err)
	}
}

// tickHandler is the step and phase the class is at: a student's page reloads
// when it moves.
func (cl *Class) tickHandler(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, cl.phaseTick())
}

// phaseTick changes when the step or the phase does: what a student's
// page must follow (other students' answers do not move it).
func (cl *Class) phaseTick() string {
	cl.mu.RLock()
	defer cl.mu.RUnlock()
	return fmt.Sprintf("%d-%s", cl.pos, cl.phase)
}

// diagram serves diagram k of the student's own current step, once the
// run is shown: the student edition's SVG, which marks no outcome.
func (cl *Class) diagram(w http.ResponseWriter, r *http.Request) {
	s, err := cl.studentOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	i, phase := cl.current()
	k, err := strconv.Atoi(r.PathValue("k"))
	if s == nil || phase == Predict || err != nil {
		http.NotFound(w, r)
		return
	}
	v, err := cl.views.get(cl, s.Name, i)
	if err != nil {
		fail(w, err)
		return
	}
	if k < 0 || k >= len(v.diagrams) {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Write(v.diagrams[k].SVG)
}

// A studentView is a student's page's data.
type studentView struct {
	Lang, Title, Name, StepOf, StepID, Phase, PhaseText, Tick string
	Notice, NoticeClass, Score, SeedLine, Waiting             string
	Stories                                                   []lessonview.Story
	Runs                                                      []runItem
	Cuts                                                      []string
	Questions                                                 []questionItem
}

type runItem struct {
	Command  string
	Lines    []string
	Diagrams []diagramItem
	Traces   []traceItem
}

type diagramItem struct{ URL, Caption string }

type traceItem struct{ Semantics, Text string }

type questionItem struct {
	N                                int
	Kind, Text, State, Given, Wait   string
	Verdict, VerdictClass, Semantics string
	Why, Diagram                     string
	Open                             bool
	Commands                         []string
	Choices                          []choiceItem
}

type choiceItem struct{ Letter, Label string }

// studentPage shows a student the current step in its phase: before the
// run, the story and the predictions; once it is shown, their own run
// (the student edition's diagrams and the text trace) and the evidence
// questions; after the reveal, the right answers, the why and the score.
// Nothing a page carries before the reveal says which choice is right.
func (cl *Class) studentPage(w http.ResponseWriter, _ *http.Request, s *student, status int, notice, class string) {
	i, phase := cl.current()
	ss, err := cl.views.get(cl, s.Name, i)
	if err != nil {
		fail(w, err)
		return
	}
	v := ss.view
	given, err := cl.st.answersOf(s.Name, v.ID)
	if err != nil {
		fail(w, err)
		return
	}
	p := studentView{Lang: string(lang.Current()), Title: v.Title, Name: s.Name, StepID: v.ID, Phase: phase,
		StepOf:    lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total}),
		PhaseText: lang.T("class." + phase), Tick: cl.phaseTick(), Notice: notice, NoticeClass: class, Stories: v.Stories}
	if phase != Predict {
		p.SeedLine = lessonview.SeedLine(v)
		for _, rv := range v.Runs {
			item := runItem{Command: rv.Command}
			if phase == Revealed {
				item.Lines = rv.Lines
			}
			for k, d := range ss.diagrams {
				if d.Run == rv.ID {
					item.Diagrams = append(item.Diagrams, diagramItem{URL: fmt.Sprintf("/diagram/%d", k), Caption: d.Caption})
				}
			}
			for _, sr := range v.Results[rv.ID].Runs {
				var b strings.Builder
				if err := report.WriteTimeline(&b, sr.Config.Topology, sr.Trace.Events); err != nil {
					fail(w, err)
					return
				}
				item.Traces = append(item.Traces, traceItem{Semantics: sr.Outcome.Semantics.String(), Text: b.String()})
			}
			p.Runs = append(p.Runs, item)
		}
		for _, c := range v.Cuts {
			p.Cuts = append(p.Cuts, "$ "+c.Command)
		}
		if phase == Revealed {
			p.Cuts = cutLinesOrNil(v)
		}
	}
	var right, asked int
	for j, q := range v.Questions {
		qi := questionItem{N: j + 1, Text: q.Text, Open: open(q.Mechanism, phase), Kind: lang.T("class.kind_evidence")}
		if q.Mechanism {
			qi.Kind = lang.T("class.kind_mechanism")
		}
		if !q.Mechanism && phase == Predict {
			qi.Wait, qi.State = lang.T("class.wait_question"), "later" // the page says once that more questions open (Waiting)
			p.Questions = append(p.Questions, qi)
			continue
		}
		if phase != Predict {
			qi.Commands = lessonview.EvidenceCommands(q)
		}
		for c, label := range q.Choices {
			qi.Choices = append(qi.Choices, choiceItem{Letter: string(rune('a' + c)), Label: label})
		}
		l, answered := given[j+1]
		label := func(l int) string { return fmt.Sprintf("%c) %s", 'a'+l, q.Choices[l]) }
		switch {
		case answered:
			qi.Given, qi.Open, qi.State = lang.Tf("class.your_answer", map[string]any{"Answer": label(int(l[0] - 'a'))}), false, "answered"
		case qi.Open:
			qi.State = "open"
		default:
			qi.Given, qi.State = lang.T("class.not_answered"), "closed"
		}
		if phase == Revealed {
			asked++
			answer := label(q.Answer)
			switch {
			case answered && int(l[0]-'a') == q.Answer:
				right++
				qi.Verdict, qi.VerdictClass = "✓ "+lang.Tf("lesson.right", map[string]any{"Answer": answer}), "right"
			case answered:
				qi.Verdict, qi.VerdictClass = "✗ "+lang.Tf("lesson.wrong", map[string]any{"Answer": answer, "Given": label(int(l[0] - 'a'))}), "wrong"
			default:
				qi.Verdict, qi.VerdictClass = "✗ "+lang.Tf("lesson.unanswered", map[string]any{"Answer": answer}), "wrong"
			}
			qi.Semantics, qi.Why, qi.Diagram = q.Semantics.String(), oneParagraph(q.Why), q.Diagram
		}
		p.Questions = append(p.Questions, qi)
	}
	switch phase {
	case Predict:
		p.Waiting = lang.T("class.wait_evidence")
	case Evidence:
		p.Waiting = lang.T("class.wait_reveal")
	case Revealed:
		total, err := cl.gradedOf(s.Name)
		if err != nil {
			fail(w, err)
			return
		}
		p.Score = lang.Tf("class.score", map[string]any{"Right": right, "Asked": asked, "TotalRight": total.Right, "TotalAsked": len(total.Answers)})
		p.Waiting = lang.T("class.wait_next")
	}
	render(w, status, "student", p)
}

// cutLinesOrNil are the step's searches with their results (who attacks
// alone at each N), none for a step without them.
func cutLinesOrNil(v *lessonview.StepView) []string {
	if len(v.Cuts) == 0 {
		return nil
	}
	return lessonview.CutLines(v)
}

// oneParagraph joins a text's lines into one.
func oneParagraph(s string) string { return strings.Join(strings.Fields(s), " ") }
