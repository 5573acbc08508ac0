package deploy_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// slurmJobsDir is the folder of a running Slurm cluster where jobs may
// write (printed by `.ci/slurm start`), or "" where there is none: then
// TestSlurmCluster skips, except under CI, where it fails.
func slurmJobsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ONCE_TEST_SLURM")
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("ONCE_TEST_SLURM is unset, and CI=%q requires the real Slurm run (.ci/slurm start prints the folder)", os.Getenv("CI"))
		}
		t.Skip("no Slurm cluster: run `.ci/slurm start` and set ONCE_TEST_SLURM to the folder it prints")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Fatalf("ONCE_TEST_SLURM is set but sbatch is not on PATH: %v", err)
	}
	return dir
}

// submitted is what submit.sh printed: the array's job id (its --parsable
// line) and the merge job's ("Submitted batch job N").
var submittedMerge = regexp.MustCompile(`(?m)^Submitted batch job (\d+)$`)

// submit runs deploy/slurm/submit.sh in work with env, as a user would
// on a login node, and returns the merge job's id.
func submit(t *testing.T, work string, env []string, args ...string) (array, merge string) {
	t.Helper()
	script, err := filepath.Abs("slurm/submit.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("submit.sh %v: %v\n%s", args, err, out)
	}
	m := submittedMerge.FindStringSubmatch(string(out))
	lines := strings.Fields(string(out))
	if m == nil || len(lines) == 0 {
		t.Fatalf("submit.sh %v printed no job ids:\n%s", args, out)
	}
	return strings.SplitN(lines[0], ";", 2)[0], m[1]
}

// waitForMerge polls the queue until the merge job has left it (it ran)
// or is held by a dependency that can never be met (a task of its array
// failed or was cancelled), for at most limit. It never waits longer.
func waitForMerge(array, merge string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		out, err := exec.Command("squeue", "-h", "-j", merge, "-o", "%T %r").CombinedOutput()
		if err != nil && !strings.Contains(string(out), "Invalid job id") {
			return fmt.Errorf("squeue -j %s: %v: %s", merge, err, out)
		}
		state := strings.TrimSpace(string(out))
		switch {
		case state == "" || strings.Contains(state, "Invalid job id"):
			return nil
		case strings.Contains(state, "DependencyNeverSatisfied"):
			return fmt.Errorf("merge job %s will never run: a task of array %s failed (%s)", merge, array, state)
		}
		time.Sleep(200 * time.Millisecond)
	}
	queue, _ := exec.Command("squeue", "-h").CombinedOutput()
	return fmt.Errorf("merge job %s still queued after %s:\n%s", merge, limit, queue)
}

// cancel removes the jobs from the queue and waits (bounded) until they
// have left it, so that no test leaves one behind on any path.
func cancel(t *testing.T, ids ...string) {
	t.Helper()
	for range 50 {
		_ = exec.Command("scancel", ids...).Run()
		out, _ := exec.Command("squeue", "-h", "-j", strings.Join(ids, ",")).CombinedOutput()
		if strings.TrimSpace(string(out)) == "" || strings.Contains(string(out), "Invalid job id") {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	out, _ := exec.Command("squeue", "-h").CombinedOutput()
	t.Errorf("jobs %v still queued after scancel:\n%s", ids, out)
}

// TestSlurmCluster submits the recipes of deploy/slurm to a real Slurm
// cluster (one node, started by .ci/slurm): the matrix as an 8-task
// array, the explore as an 8-task array, each with the merge job chained
// by afterok, exactly as a user runs them on a login node. The merged
// matrix equals the unsharded run byte for byte; the merged search has
// the unsharded verdict and counterexample. A cancelled task makes the
// merge's dependency fail, and the wait reports it instead of hanging.
func TestSlurmCluster(t *testing.T) {
	jobs := slurmJobsDir(t)
	const limit = 4 * time.Minute

	t.Run("matrix", func(t *testing.T) {
		work, err := os.MkdirTemp(jobs, "matrix-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(work) })
		env := []string{"ONCE=" + onceBin, "ONCE_SEEDS=" + testSeeds}
		array, merge := submit(t, work, env)
		t.Cleanup(func() { cancel(t, array, merge) })
		if err := waitForMerge(array, merge, limit); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(work, "matrix.txt"))
		if err != nil {
			t.Fatalf("the merge job wrote no report: %v", err)
		}
		if want := once(t, nil, "matrix", "--seeds", testSeeds); string(got) != want {
			t.Errorf("the cluster's merged report differs from once matrix --seeds %s:\n%s\nwant\n%s", testSeeds, got, want)
		}
	})

	t.Run("explore", func(t *testing.T) {
		work, err := os.MkdirTemp(jobs, "explore-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(work) })
		env := []string{"ONCE=" + onceBin, "ONCE_OPS=" + testOps, "ONCE_MAX_FAULTS=" + testMaxFaults}
		array, merge := submit(t, work, env, "explore")
		t.Cleanup(func() { cancel(t, array, merge) })
		if err := waitForMerge(array, merge, limit); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(work, "explore.txt"))
		if err != nil {
			t.Fatalf("the merge job wrote no report: %v", err)
		}
		want := once(t, nil, "explore", "double-billing", "--semantics", "idem", "--ops", testOps, "--max-faults", testMaxFaults,
			"--faults", "loss,ack-loss", "--max-memory", "3GiB")
		if withoutCounts(string(got)) != withoutCounts(want) {
			t.Errorf("the cluster's merged search differs from the unsharded one:\n%s\nwant\n%s", got, want)
		}
	})

	t.Run("cancelled task fails the wait", func(t *testing.T) {
		work, err := os.MkdirTemp(jobs, "cancelled-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(work) })
		// A task that takes long enough to be cancelled while queued or
		// running: the matrix over many seeds.
		env := []string{"ONCE=" + onceBin, "ONCE_SEEDS=200000000"}
		array, merge := submit(t, work, env)
		t.Cleanup(func() { cancel(t, array, merge) })
		_ = exec.Command("scancel", array+"_0").Run()
		err = waitForMerge(array, merge, limit)
		if err == nil || !strings.Contains(err.Error(), "will never run") {
			t.Fatalf("after cancelling task 0 the wait said %v, want the merge reported as never running", err)
		}
		if _, err := os.Stat(filepath.Join(work, "matrix.txt")); err == nil {
			t.Error("the merge ran although a task of its array was cancelled")
		}
	})
}
