package srs

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// review is one review of a log: its time and grade.
type review struct {
	At time.Time
	G  Grade
}

// step builds a log from offsets after the previous review.
func logOf(steps ...any) []review {
	var out []review
	at := t0
	for i := 0; i < len(steps); i += 2 {
		at = at.Add(steps[i].(time.Duration))
		out = append(out, review{At: at, G: steps[i+1].(Grade)})
	}
	return out
}

const (
	m = time.Minute
	d = 24 * time.Hour
)

// referenceLogs are the review logs both schedulers replay: every grade
// from every state, lapses, same-day reviews and gaps of years.
func referenceLogs() [][]review {
	logs := [][]review{
		logOf(0*m, Good, 10*m, Good, 1*d, Good, 3*d, Good, 20*d, Again, 10*m, Good, 1*d, Good, 40*d, Easy),
		logOf(0*m, Again, 1*m, Again, 1*m, Hard, 6*m, Good, 10*m, Good, 2*d, Hard, 400*d, Again, 15*m, Hard, 1*d, Good),
		logOf(0*m, Easy, 8*d, Easy, 30*d, Easy, 90*d, Hard, 1000*d, Again, 10*m, Again, 10*m, Good, 3*d, Easy),
		logOf(0*m, Hard, 6*m, Hard, 6*m, Good, 1*time.Hour, Good, 5*time.Hour, Again, 1*m, Good, 20*time.Hour, Easy),
		logOf(0*m, Good, 12*time.Hour, Easy, 2*d, Again, 2*d, Again, 2*d, Hard, 3650*d, Good, 1*d, Again, 1*d, Easy),
	}
	// Random logs: grades and gaps from a minute to two years.
	r := rand.New(rand.NewPCG(44, 1))
	gaps := []time.Duration{m, 10 * m, time.Hour, 20 * time.Hour, d, 3 * d, 11 * d, 45 * d, 200 * d, 730 * d}
	for range 6 {
		var steps []any
		for k := range 25 {
			gap := time.Duration(0)
			if k > 0 {
				gap = gaps[r.IntN(len(gaps))]
			}
			steps = append(steps, gap, Grades[r.IntN(4)])
		}
		logs = append(logs, logOf(steps...))
	}
	return logs
}

// replay runs a log through Schedule.
func replay(t *testing.T, log []review) []Card {
	t.Helper()
	c := NewCard(log[0].At)
	var out []Card
	for _, rv := range log {
		var err error
		if c, err = Schedule(c, rv.G, rv.At); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// tsCard is a card as the script prints it.
type tsCard struct {
	Due           int64   `json:"due"`
	Stability     float64 `json:"stability"`
	Difficulty    float64 `json:"difficulty"`
	State         State   `json:"state"`
	ScheduledDays int     `json:"scheduled_days"`
	Reps          int     `json:"reps"`
	Lapses        int     `json:"lapses"`
	Step          int     `json:"step"`
}

// TestMatchesTSFSRS replays the same review logs with ts-fsrs (the
// frontend's pinned devDependency, run by node) and with Schedule: every
// due date, state and counter equal, stability and difficulty within
// 1e-6.
func TestMatchesTSFSRS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: ts-fsrs cannot run (the hard-coded references of TestReferenceIntervals still check the scheduler)")
	}
	mod, err := filepath.Abs("../../frontend/node_modules/ts-fsrs/dist/index.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mod); err != nil {
		t.Fatalf("ts-fsrs is not installed (make deps, or npm ci in frontend/): %v", err)
	}
	logs := referenceLogs()
	var in [][]map[string]int64
	for _, l := range logs {
		var rows []map[string]int64
		for _, rv := range l {
			rows = append(rows, map[string]int64{"t": rv.At.UnixMilli(), "g": int64(rv.G)})
		}
		in = append(in, rows)
	}
	b, _ := json.Marshal(in)
	cmd := exec.Command(node, "testdata/tsfsrs.mjs", mod)
	cmd.Stdin = bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var want [][]tsCard
	if err := json.Unmarshal(outb, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(logs) {
		t.Fatalf("ts-fsrs replayed %d logs of %d", len(want), len(logs))
	}
	reviews := 0
	for i, l := range logs {
		got := replay(t, l)
		for k, g := range got {
			w := want[i][k]
			reviews++
			if g.Due.UnixMilli() != w.Due || g.State != w.State || g.ScheduledDays != w.ScheduledDays ||
				g.Reps != w.Reps || g.Lapses != w.Lapses || g.Step != w.Step ||
				math.Abs(g.Stability-w.Stability) > 1e-6 || math.Abs(g.Difficulty-w.Difficulty) > 1e-6 {
				t.Fatalf("log %d review %d (grade %d at %s):\n go      due %s state %d days %d reps %d lapses %d step %d S %.8f D %.8f\n ts-fsrs due %s state %d days %d reps %d lapses %d step %d S %.8f D %.8f",
					i, k, l[k].G, l[k].At.Format(time.RFC3339),
					g.Due.UTC().Format(time.RFC3339), g.State, g.ScheduledDays, g.Reps, g.Lapses, g.Step, g.Stability, g.Difficulty,
					time.UnixMilli(w.Due).UTC().Format(time.RFC3339), w.State, w.ScheduledDays, w.Reps, w.Lapses, w.Step, w.Stability, w.Difficulty)
			}
		}
	}
	t.Logf("%d logs, %d reviews: the same as ts-fsrs", len(logs), reviews)
}

// TestReferenceIntervals keeps a few of ts-fsrs 5.4.2's answers (printed
// by it with its defaults, fuzz off): the minutes to the next review, the
// stability and the difficulty each grade gives, Again first, at four
// points of one card's life.
func TestReferenceIntervals(t *testing.T) {
	type ref struct {
		minutes int
		s, d    float64
	}
	c := NewCard(t0)
	check := func(name string, now time.Time, want [4]ref) {
		t.Helper()
		got, err := Preview(c, now)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want {
			g := got[i]
			if mins := int(g.Due.Sub(now) / time.Minute); mins != w.minutes || math.Abs(g.Stability-w.s) > 1e-8 || math.Abs(g.Difficulty-w.d) > 1e-8 {
				t.Errorf("%s, %v: %d min, S %.8f, D %.8f; ts-fsrs: %d min, S %.8f, D %.8f", name, Grades[i], mins, g.Stability, g.Difficulty, w.minutes, w.s, w.d)
			}
		}
	}
	check("new", t0, [4]ref{{1, 0.212, 6.4133}, {6, 1.2931, 5.11217071}, {10, 2.3065, 2.11810397}, {11520, 8.2956, 1}})
	c, _ = Schedule(c, Good, t0)
	now := t0.Add(10 * time.Minute)
	check("good, 10 min later", now, [4]ref{{1, 0.77508398, 7.39450274}, {6, 2.3065, 4.75285849}, {2880, 2.3065, 2.11121424}, {5760, 3.94605407, 1}})
	c, _ = Schedule(c, Good, now)
	if c.State != Review || c.ScheduledDays != 2 {
		t.Fatalf("after two goods: state %d, %d days; ts-fsrs: Review, 2 days", c.State, c.ScheduledDays)
	}
	now = c.Due
	check("review when due", now, [4]ref{{10, 0.60770166, 7.39223814}, {11520, 7.51735908, 4.74828477}, {15840, 10.97104786, 2.1043314}, {27360, 18.53433169, 1}})
	c, _ = Schedule(c, Good, now)
	now = c.Due.Add(30 * 24 * time.Hour)
	check("review 30 days late", now, [4]ref{{10, 1.84852238, 7.38997579}, {83520, 57.88890081, 4.74371562}, {128160, 88.98543588, 2.09745544}, {226080, 157.08419518, 1}})
}

// TestScheduleRefuses checks the inputs Schedule refuses.
func TestScheduleRefuses(t *testing.T) {
	c, err := Schedule(NewCard(t0), Good, t0)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() error{
		"grade 0":               func() error { _, err := Schedule(c, 0, t0); return err },
		"grade 5":               func() error { _, err := Schedule(c, 5, t0); return err },
		"before the last":       func() error { _, err := Schedule(c, Good, t0.Add(-time.Hour)); return err },
		"state 9":               func() error { bad := c; bad.State = 9; _, err := Schedule(bad, Good, t0); return err },
		"difficulty 0 once met": func() error { bad := c; bad.Difficulty = 0.5; _, err := Schedule(bad, Good, t0.Add(d)); return err },
	} {
		if f() == nil {
			t.Errorf("%s: scheduled", name)
		}
	}
}
