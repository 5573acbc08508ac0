// Package deploy_test checks the recipes in deploy/ the way they run: the
// Kubernetes manifests decoded strictly into the API's own types, the
// Job's command and the Slurm scripts run here by index against a freshly
// built once, merged, and compared byte for byte with the unsharded run;
// the Dockerfile's build producing a static binary.
//
// It is a module of its own so that the Kubernetes API types it checks
// against stay out of once's dependencies.
package deploy_test

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// testSeeds replaces the recipes' million seeds, and testOps and
// testMaxFaults the bounds of their big search: the same commands, small.
const (
	testSeeds     = "40"
	testOps       = "3"
	testMaxFaults = "4"
)

var onceBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "once-deploy-test-")
	if err != nil {
		panic(err)
	}
	onceBin = filepath.Join(dir, "once")
	build := exec.Command("go", "build", "-o", onceBin, "./cmd/once")
	build.Dir = ".."
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building once: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// once runs the built binary with env added and returns its stdout.
func once(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(onceBin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("once %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// docs splits a multi-document YAML file.
func docs(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^#.*$`).ReplaceAllString(d, "")) != "" {
			out = append(out, []byte(d))
		}
	}
	return out
}

// strictJob decodes a Job, failing on any field the API does not have.
func strictJob(t *testing.T, doc []byte) *batchv1.Job {
	t.Helper()
	var j batchv1.Job
	if err := yaml.UnmarshalStrict(doc, &j); err != nil {
		t.Fatalf("not a valid Job: %v", err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" {
		t.Fatalf("apiVersion %q kind %q", j.APIVersion, j.Kind)
	}
	if len(j.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: want one container", j.Name)
	}
	if j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy %q: a Job's pod must be Never or OnFailure; Never keeps a failed shard's log", j.Name, j.Spec.Template.Spec.RestartPolicy)
	}
	return &j
}

// local maps the Job's volume path to a directory here, its million
// seeds to testSeeds and its search's bounds to testOps and testMaxFaults.
func local(args []string, mount, dir string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		a = strings.ReplaceAll(a, mount, dir)
		if i > 0 {
			switch args[i-1] {
			case "--seeds":
				a = testSeeds
			case "--ops":
				a = testOps
			case "--max-faults":
				a = testMaxFaults
			}
		}
		out[i] = a
	}
	return out
}

// withoutCounts drops from an explore report what a merge of its shards
// says differently: the line of counts (summed over the shards), the note
// saying so, and the reduction line's count of revisits (summed too; the
// reduction used stays). The verdict and the counterexample stay.
func withoutCounts(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "reduction: ") {
			l, _, _ = strings.Cut(l, "; ")
		}
		if !strings.HasPrefix(l, "explored ") && !strings.HasPrefix(l, "merged from ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// unshardedExplore is the search of the recipes' shard command (local
// bounds) on one machine: the shard's arguments without --shard and --out.
func unshardedExplore(t *testing.T, shardArgs []string) string {
	t.Helper()
	var args []string
	for i := 0; i < len(shardArgs); i++ {
		if shardArgs[i] == "--shard" || shardArgs[i] == "--out" || shardArgs[i] == "--workers" {
			i++
			continue
		}
		args = append(args, shardArgs[i])
	}
	return once(t, nil, args...)
}

// TestKubernetesIndexedJob: the manifests are valid objects of the
// Kubernetes API; the Job's command, run here once per completion index
// with JOB_COMPLETION_INDEX set as the Job controller sets it, and then
// the merge Job's command, print what the unsharded command prints.
func TestKubernetesIndexedJob(t *testing.T) {
	mdocs := docs(t, "kubernetes/matrix.yaml")
	if len(mdocs) != 2 {
		t.Fatalf("matrix.yaml: %d documents, want a PersistentVolumeClaim and a Job", len(mdocs))
	}
	var pvc corev1.PersistentVolumeClaim
	if err := yaml.UnmarshalStrict(mdocs[0], &pvc); err != nil || pvc.Kind != "PersistentVolumeClaim" {
		t.Fatalf("first document: not a valid PersistentVolumeClaim (%v)", err)
	}
	if !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Error("the shards' claim must be ReadWriteMany: every pod of the Job writes to it")
	}
	job := strictJob(t, mdocs[1])
	if job.Spec.CompletionMode == nil || *job.Spec.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("the matrix Job must be Indexed: the shard index is the completion index")
	}
	n := int(*job.Spec.Completions)
	c := job.Spec.Template.Spec.Containers[0]
	if i := slices.Index(c.Args, "--shard"); i < 0 || c.Args[i+1] != "index/"+strconv.Itoa(n) {
		t.Fatalf("args %v: want --shard index/%d (completions %d)", c.Args, n, n)
	}
	merge := strictJob(t, docs(t, "kubernetes/merge.yaml")[0])
	mc := merge.Spec.Template.Spec.Containers[0]
	claim := func(j *batchv1.Job, c corev1.Container) string {
		for _, v := range j.Spec.Template.Spec.Volumes {
			for _, m := range c.VolumeMounts {
				if m.Name == v.Name && v.PersistentVolumeClaim != nil {
					return v.PersistentVolumeClaim.ClaimName + ":" + m.MountPath
				}
			}
		}
		return ""
	}
	if claim(job, c) != pvc.Name+":/shards" || claim(merge, mc) != pvc.Name+":/shards" {
		t.Fatalf("both Jobs must mount claim %s at /shards: %q, %q", pvc.Name, claim(job, c), claim(merge, mc))
	}
	if c.Image != mc.Image {
		t.Errorf("images differ: %s, %s", c.Image, mc.Image)
	}

	dir := t.TempDir()
	for i := range n {
		if out := once(t, []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(i)}, local(c.Args, "/shards", dir)...); out != "" {
			t.Fatalf("index %d printed %q; its output belongs in the shard file", i, out)
		}
	}
	got := once(t, nil, local(mc.Args, "/shards", dir)...)
	want := once(t, nil, "matrix", "--seeds", testSeeds)
	if got != want {
		t.Errorf("the Jobs' merged report differs from once matrix --seeds %s", testSeeds)
	}
}

// TestKubernetesExploreJob: the explore manifests are valid objects; the
// Job's command, run here per completion index (with small bounds), and
// the merge Job's command print the verdict and counterexample of the
// unsharded search, its counts aside.
func TestKubernetesExploreJob(t *testing.T) {
	edocs := docs(t, "kubernetes/explore.yaml")
	if len(edocs) != 2 {
		t.Fatalf("explore.yaml: %d documents, want a PersistentVolumeClaim and a Job", len(edocs))
	}
	var pvc corev1.PersistentVolumeClaim
	if err := yaml.UnmarshalStrict(edocs[0], &pvc); err != nil || pvc.Kind != "PersistentVolumeClaim" || !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Fatalf("first document: not a valid ReadWriteMany PersistentVolumeClaim (%v)", err)
	}
	job := strictJob(t, edocs[1])
	if job.Spec.CompletionMode == nil || *job.Spec.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("the explore Job must be Indexed: the shard index is the completion index")
	}
	n := int(*job.Spec.Completions)
	c := job.Spec.Template.Spec.Containers[0]
	if i := slices.Index(c.Args, "--shard"); i < 0 || c.Args[0] != "explore" || c.Args[i+1] != "index/"+strconv.Itoa(n) {
		t.Fatalf("args %v: want explore … --shard index/%d (completions %d)", c.Args, n, n)
	}
	merge := strictJob(t, docs(t, "kubernetes/explore-merge.yaml")[0])
	mc := merge.Spec.Template.Spec.Containers[0]
	for _, j := range []*batchv1.Job{job, merge} {
		if v := j.Spec.Template.Spec.Volumes; len(v) != 1 || v[0].PersistentVolumeClaim == nil || v[0].PersistentVolumeClaim.ClaimName != pvc.Name {
			t.Fatalf("%s: want the one volume of claim %s", j.Name, pvc.Name)
		}
	}

	dir := t.TempDir()
	for i := range n {
		if out := once(t, []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(i)}, local(c.Args, "/shards", dir)...); out != "" {
			t.Fatalf("index %d printed %q; its output belongs in the shard file", i, out)
		}
	}
	got := once(t, nil, local(mc.Args, "/shards", dir)...)
	want := unshardedExplore(t, local(c.Args, "/shards", dir))
	if !strings.Contains(got, "merged from "+strconv.Itoa(n)+" shards") || withoutCounts(got) != withoutCounts(want) {
		t.Errorf("the Jobs' merged search differs from the unsharded one:\n%s\nwant\n%s", got, want)
	}
}

// TestSlurmArray: the array script, run by bash once per task id, then
// the merge script, print what the unsharded command prints; submit.sh
// chains the merge after the array with afterok.
func TestSlurmArray(t *testing.T) {
	script, err := os.ReadFile("slurm/matrix.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^#SBATCH --array=0-(\d+)$`).FindSubmatch(script)
	s := regexp.MustCompile(`(?m)^SHARDS=(\d+)$`).FindSubmatch(script)
	if m == nil || s == nil {
		t.Fatal("matrix.sbatch: want #SBATCH --array=0-N and SHARDS=N+1")
	}
	last, _ := strconv.Atoi(string(m[1]))
	shards, _ := strconv.Atoi(string(s[1]))
	if shards != last+1 {
		t.Fatalf("--array=0-%d runs %d tasks, SHARDS=%d", last, last+1, shards)
	}
	work := t.TempDir()
	env := []string{"ONCE=" + onceBin, "ONCE_SEEDS=" + testSeeds, "ONCE_SHARDS_DIR=" + filepath.Join(work, "shards"),
		"ONCE_REPORT=" + filepath.Join(work, "matrix.txt"), "SLURM_CPUS_PER_TASK=1"}
	bash := func(script string, extra ...string) string {
		cmd := exec.Command("bash", script)
		cmd.Env = append(append(os.Environ(), env...), extra...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash %s %v: %v\n%s", script, extra, err, out)
		}
		return string(out)
	}
	for i := 0; i <= last; i++ {
		bash("slurm/matrix.sbatch", "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i))
	}
	bash("slurm/merge.sbatch")
	got, err := os.ReadFile(filepath.Join(work, "matrix.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := once(t, nil, "matrix", "--seeds", testSeeds); string(got) != want {
		t.Error("the array's merged report differs from once matrix")
	}

	// submit.sh against a stand-in sbatch that records its arguments.
	bin := t.TempDir()
	log := filepath.Join(work, "sbatch.log")
	fake := "#!/bin/bash\necho \"$*\" >> " + log + "\necho 4242\n"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	bash("slurm/submit.sh", "PATH="+bin+":"+os.Getenv("PATH"))
	calls, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "matrix.sbatch") ||
		!strings.Contains(lines[1], "--dependency=afterok:4242") || !strings.HasSuffix(lines[1], "merge.sbatch") {
		t.Errorf("submit.sh called sbatch as:\n%s", calls)
	}
}

// TestSlurmExploreArray: explore.sbatch, run by bash once per task id
// (small bounds), then merge.sbatch as `submit.sh explore` sets it up,
// print the unsharded search's verdict and counterexample; submit.sh
// explore submits explore.sbatch and chains the merge.
func TestSlurmExploreArray(t *testing.T) {
	script, err := os.ReadFile("slurm/explore.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^#SBATCH --array=0-(\d+)$`).FindSubmatch(script)
	s := regexp.MustCompile(`(?m)^SHARDS=(\d+)$`).FindSubmatch(script)
	if m == nil || s == nil {
		t.Fatal("explore.sbatch: want #SBATCH --array=0-N and SHARDS=N+1")
	}
	last, _ := strconv.Atoi(string(m[1]))
	if shards, _ := strconv.Atoi(string(s[1])); shards != last+1 {
		t.Fatalf("--array=0-%d runs %d tasks, SHARDS=%d", last, last+1, shards)
	}
	work := t.TempDir()
	dir := filepath.Join(work, "explore-shards")
	env := []string{"ONCE=" + onceBin, "ONCE_OPS=" + testOps, "ONCE_MAX_FAULTS=" + testMaxFaults, "ONCE_SHARDS_DIR=" + dir,
		"ONCE_REPORT=" + filepath.Join(work, "explore.txt"), "SLURM_CPUS_PER_TASK=2"}
	bash := func(script string, extra ...string) {
		cmd := exec.Command("bash", script)
		cmd.Env = append(append(os.Environ(), env...), extra...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("bash %s %v: %v\n%s", script, extra, err, out)
		}
	}
	for i := 0; i <= last; i++ {
		bash("slurm/explore.sbatch", "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i))
	}
	bash("slurm/merge.sbatch")
	got, err := os.ReadFile(filepath.Join(work, "explore.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := once(t, nil, "explore", "double-billing", "--semantics", "idem", "--ops", testOps, "--max-faults", testMaxFaults,
		"--faults", "loss,ack-loss", "--max-memory", "3GiB")
	if withoutCounts(string(got)) != withoutCounts(want) {
		t.Errorf("the array's merged search differs from the unsharded one:\n%s\nwant\n%s", got, want)
	}

	bin := t.TempDir()
	log := filepath.Join(work, "sbatch.log")
	fake := "#!/bin/bash\necho \"ONCE_SHARDS_DIR=$ONCE_SHARDS_DIR ONCE_REPORT=$ONCE_REPORT $*\" >> " + log + "\necho 4242\n"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "slurm/submit.sh", "explore")
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("submit.sh explore: %v\n%s", err, out)
	}
	calls, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "explore.sbatch") ||
		!strings.HasPrefix(lines[1], "ONCE_SHARDS_DIR=explore-shards ONCE_REPORT=explore.txt ") ||
		!strings.Contains(lines[1], "--dependency=afterok:4242") || !strings.HasSuffix(lines[1], "merge.sbatch") {
		t.Errorf("submit.sh explore called sbatch as:\n%s", calls)
	}
}

// TestDockerfileBuildsStaticBinary: the image's build command, run here,
// makes a binary with no ELF interpreter (static: it runs on scratch), and
// the final stage is that binary alone.
func TestDockerfileBuildsStaticBinary(t *testing.T) {
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	run := regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .*) -o /out/once (\./cmd/once)$`).FindStringSubmatch(text)
	if run == nil {
		t.Fatal("Dockerfile: no `RUN CGO_ENABLED=0 go build … -o /out/once ./cmd/once` line")
	}
	stages := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(text, -1)
	if len(stages) != 2 || stages[1][1] != "scratch" || !strings.Contains(text, `ENTRYPOINT ["/once"]`) {
		t.Fatalf("Dockerfile: want a build stage and a scratch stage with ENTRYPOINT [\"/once\"], got %v", stages)
	}
	out := filepath.Join(t.TempDir(), "once")
	cmd := exec.Command("sh", "-c", run[1]+" -o "+out+" "+run[2])
	cmd.Dir = ".."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", run[1], err, b)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the binary has an ELF interpreter: it is not static and will not run on scratch")
		}
	}
	if v := once(t, nil, "list"); !strings.Contains(v, "double-billing") {
		t.Error("the built binary does not list the catalog")
	}
}
