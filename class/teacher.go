package class

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"html/template"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// isTeacher says whether r carries the instructor's token (its cookie).
func (cl *Class) isTeacher(r *http.Request) bool {
	c, err := r.Cookie(teacherCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(cl.teacher)) == 1
}

// teacherOnly serves h to the instructor alone.
func (cl *Class) teacherOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !cl.isTeacher(r) {
			http.Error(w, lang.T("class.forbidden"), http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

// teacherPage is the instructor's dashboard. The address printed at the
// start carries the token (?token=…): the page keeps it in a cookie and
// drops it from the address, so that it is not left on a projected
// address bar.
func (cl *Class) teacherPage(w http.ResponseWriter, r *http.Request) {
	if t := r.URL.Query().Get("token"); t != "" {
		if subtle.ConstantTimeCompare([]byte(t), []byte(cl.teacher)) != 1 {
			http.Error(w, lang.T("class.forbidden"), http.StatusForbidden)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: teacherCookie, Value: cl.teacher, Path: "/teacher", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, "/teacher", http.StatusSeeOther)
		return
	}
	if !cl.isTeacher(r) {
		http.Error(w, lang.T("class.forbidden"), http.StatusForbidden)
		return
	}
	d, err := cl.dashboard(r.URL.Query().Get("projector") != "")
	if err != nil {
		fail(w, err)
		return
	}
	render(w, http.StatusOK, "teacher", d)
}

// panel is the dashboard's live part, which the page polls.
func (cl *Class) panel(w http.ResponseWriter, r *http.Request) {
	d, err := cl.dashboard(r.URL.Query().Get("projector") != "")
	if err != nil {
		fail(w, err)
		return
	}
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, "panel", d); err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// advance moves the class on (see Class.Advance), then shows the
// dashboard.
func (cl *Class) advance(w http.ResponseWriter, r *http.Request) {
	pos, _ := strconv.Atoi(r.PostFormValue("pos"))
	moved, err := cl.Advance(pos, r.PostFormValue("phase"))
	if err != nil {
		fail(w, err)
		return
	}
	if moved {
		i, _ := cl.current()
		cl.views.forget(i)
	}
	http.Redirect(w, r, "/teacher", http.StatusSeeOther)
}

// release lets the student the form names join again (store.release).
func (cl *Class) release(w http.ResponseWriter, r *http.Request) {
	if err := cl.st.release(r.PostFormValue("name")); err != nil {
		fail(w, err)
		return
	}
	http.Redirect(w, r, "/teacher", http.StatusSeeOther)
}

// A dashboardView is the instructor's page's data.
type dashboardView struct {
	Lang, Title, StepOf, Phase, PhaseText, PanelURL, JoinURL, Code string
	Pos, Students, Done                                            int
	Last, Projector, ShowRates                                     bool
	QR                                                             template.HTML
	Tally                                                          []tallyItem
	Roster                                                         []rosterItem
}

type tallyItem struct {
	questionTally
	Kind, Rate string
	Width      float64
}

type rosterItem struct {
	Name, StepAnswers string
	Right, Asked      int
}

// dashboard gathers the instructor's page: the step and its phase, per
// question how many were asked and answered, the share right and the
// wrong answers chosen (on the projector only after the reveal, where
// they would otherwise hint at the answer), and the roster with each
// student's answers to the step and score so far.
func (cl *Class) dashboard(projector bool) (*dashboardView, error) {
	cl.mu.Lock()
	pos, phase := cl.pos, cl.phase
	cl.mu.Unlock()
	i := cl.steps[pos]
	step := &cl.course.Steps[i]
	d := &dashboardView{Lang: string(lang.Current()), Title: lang.T("lesson.step." + step.ID), Phase: phase, Pos: pos,
		StepOf:    lang.Tf("lesson.step_of", map[string]any{"N": pos + 1, "Total": len(cl.steps)}),
		PhaseText: lang.T("class.teacher_" + phase), Last: pos+1 == len(cl.steps), Projector: projector,
		ShowRates: !projector || phase == Revealed, JoinURL: cl.joinURL(), Code: cl.code, PanelURL: "/teacher/panel"}
	if projector {
		d.PanelURL += "?projector=1"
		qr, err := qrSVG(d.JoinURL)
		if err != nil {
			return nil, err
		}
		d.QR = template.HTML(qr) // drawn here from rectangles: no text of the user's in it
	}
	tally, err := cl.tally(i)
	if err != nil {
		return nil, err
	}
	if d.Students, d.Done, err = cl.doneCount(i, phase); err != nil {
		return nil, err
	}
	for _, t := range tally {
		item := tallyItem{questionTally: t, Kind: lang.T("class.kind_evidence"), Rate: "–"}
		if t.Mechanism {
			item.Kind = lang.T("class.kind_mechanism")
		}
		if t.Answered > 0 {
			share := float64(t.Right) / float64(t.Answered)
			item.Rate, item.Width = lang.Percent(strconv.FormatFloat(100*share, 'f', 0, 64)), 10*share
		}
		d.Tally = append(d.Tally, item)
	}
	if projector {
		return d, nil
	}
	students, err := cl.st.students()
	if err != nil {
		return nil, err
	}
	answers, err := cl.st.stepAnswers(step.ID)
	if err != nil {
		return nil, err
	}
	graded, err := cl.Graded()
	if err != nil {
		return nil, err
	}
	byName := map[string]*lesson.Graded{}
	for _, g := range graded {
		byName[g.Student] = g
	}
	for _, s := range students {
		g := byName[s.Name]
		if g == nil { // joined since Graded read the roster
			g = &lesson.Graded{}
		}
		var given []string
		for _, n := range slices.Sorted(maps.Keys(answers[s.Name])) {
			given = append(given, fmt.Sprintf("%d%s", n, answers[s.Name][n]))
		}
		d.Roster = append(d.Roster, rosterItem{Name: s.Name, StepAnswers: strings.Join(given, " "), Right: g.Right, Asked: len(g.Answers)})
	}
	return d, nil
}

// doneCount is how many students the class has, and how many of them
// answered every question open in phase of step i.
func (cl *Class) doneCount(i int, phase string) (students, done int, err error) {
	all, err := cl.st.students()
	if err != nil {
		return 0, 0, err
	}
	answers, err := cl.st.stepAnswers(cl.course.Steps[i].ID)
	if err != nil {
		return 0, 0, err
	}
	for _, s := range all {
		v, err := cl.views.get(cl, s.Name, i)
		if err != nil {
			return 0, 0, err
		}
		complete := true
		for j, q := range v.view.Questions {
			if _, ok := answers[s.Name][j+1]; open(q.Mechanism, phase) && !ok {
				complete = false
			}
		}
		if complete {
			done++
		}
	}
	return len(all), done, nil
}

// rosterCSV is the roster as CSV (WriteRosterCSV).
func (cl *Class) rosterCSV(w http.ResponseWriter, _ *http.Request) {
	cl.csv(w, "roster.csv", WriteRosterCSV)
}

// questionsCSV is the per-question rates as CSV (WriteQuestionsCSV).
func (cl *Class) questionsCSV(w http.ResponseWriter, _ *http.Request) {
	cl.csv(w, "questions.csv", WriteQuestionsCSV)
}

func (cl *Class) csv(w http.ResponseWriter, file string, write func(io.Writer, []*lesson.Graded) error) {
	graded, err := cl.Graded()
	if err != nil {
		fail(w, err)
		return
	}
	var b bytes.Buffer
	if err := write(&b, graded); err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", "attachment; filename="+file)
	w.Write(b.Bytes())
}

// resultsZip is every student's result file, zipped (WriteResultsZip).
func (cl *Class) resultsZip(w http.ResponseWriter, _ *http.Request) {
	records, err := cl.Records()
	if err != nil {
		fail(w, err)
		return
	}
	var b bytes.Buffer
	if err := WriteResultsZip(&b, records); err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", "attachment; filename=results.zip")
	w.Write(b.Bytes())
}
