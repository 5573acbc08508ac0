package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/brokers"
	"github.com/oncesim/once/live"
	"github.com/oncesim/once/scenarios"
)

// liveOptions are the flags of once live.
type liveOptions struct {
	simFlags
	scenarioFlag
	db       string
	replay   string
	format   string
	check    bool
	tickMs   float64
	deadline time.Duration
	verbose  bool
	binary   string // the once executable to start as the service; "" = this one
	target   string
	provider string
	remote   bool
	printEnv bool
	restart  string        // --restart-cmd: kills and restarts the --target service at a crash
	ready    time.Duration // --target-ready: how long to wait for the target to answer
	broker   brokers.Options
	suite    string // --suite: every row of a suite against --target
	seeds    int
	rows     []string // --rows: only these rows of the suite
	save     string   // --save: the fault plan each run took
}

func newLiveCmd() *cobra.Command {
	o := &liveOptions{}
	cmd := &cobra.Command{
		Use: "live SCENARIO | --replay PLAN",
		Args: func(cmd *cobra.Command, args []string) error {
			if (o.printEnv || o.suite != "") && len(args) == 0 {
				return nil
			}
			if o.replay != "" {
				if len(args) != 0 {
					return usageErr("--replay %s: give no SCENARIO, the plan names it", o.replay)
				}
				return nil
			}
			return o.scenarioArgs(cmd, args)
		},
		Example: `  once live double-billing --semantics alo --seed 3
  once live double-billing --semantics idem --seed 3 --db postgres://postgres@127.0.0.1/once
  once live double-billing --semantics idem --set store=memory --crash 0.3 --seed 2
  once explore double-billing --semantics alo --save cex.txt && once live --replay cex.txt
  eval "$(once live --print-env)"; python3 examples/live/python/idempotent_service.py 8000 &
  once live double-billing --semantics idem --target http://127.0.0.1:8000 --check
  examples/live/restart.sh /tmp/idem.pid 8001 python3 examples/live/python/idempotent_service.py
  once live double-billing --semantics idem --target http://127.0.0.1:8001 --crash 0.2 --check \
    --restart-cmd 'examples/live/restart.sh /tmp/idem.pid 8001 python3 examples/live/python/idempotent_service.py'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), liveSignals...)
			defer stop()
			err := runLive(ctx, o, args, cmd.Flags().Changed("restart-cmd"), cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err != nil && ctx.Err() != nil { // a signal: unfinished, not bad input
				return &exitError{code: exitIncomplete, err: err}
			}
			return err
		},
	}
	o.register(cmd, "all")
	o.registerFile(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.db, "db", "", "a PostgreSQL URL (postgres://…); default: SQLite in a temporary directory")
	fl.StringVar(&o.replay, "replay", "", "run the fault plan FILE (from explore or run --save) instead of --seed")
	fl.StringVar(&o.format, "format", "text", "output: text|json|trace (the timeline of what the fault layer saw)")
	fl.BoolVar(&o.check, "check", false, "exit 1 if a promise is violated, 3 if one could not be shown (unfinished)")
	fl.Float64Var(&o.tickMs, "tick", 1, "real milliseconds per virtual millisecond of the scenario (delays, timeouts, restarts)")
	fl.BoolVarP(&o.verbose, "verbose", "v", false, "print every server and service process started, with its address and pid, on stderr")
	fl.DurationVar(&o.deadline, "deadline", live.DefaultDeadline, "wall-clock budget of each run")
	fl.StringVar(&o.target, "target", "", "drive YOUR payment service at this base URL (contract in docs/live.md) instead of once's own")
	fl.StringVar(&o.provider, "provider-addr", live.DefaultProviderAddr, "with --target: where the card provider (through its fault layer) listens for your service; loopback unless --allow-remote")
	fl.BoolVar(&o.remote, "allow-remote", false, "with --target: allow a host outside 127.0.0.0/8 and ::1 (for --target and --provider-addr)")
	fl.DurationVar(&o.ready, "target-ready", 0, "with --target: wait up to this long for your service to answer HTTP before the run (default: ask once)")
	fl.StringVar(&o.restart, "restart-cmd", "", "with --target: a shell command that kills your service and starts it again, run at each --crash (contract in docs/live.md)")
	fl.StringVar(&o.broker.Broker, "broker", "", "run on a real broker started by once: redis|rabbitmq|nats|kfake (the scenario's live.brokers; docs/live.md)")
	fl.StringVar(&o.broker.URL, "broker-url", "", "with --broker: a server of yours instead (redis://, amqp://, nats://; loopback unless --allow-remote)")
	fl.StringVar(&o.broker.Variant, "variant", "", "with --broker: the consumer's variant (e.g. dedup-memory, dedup-database)")
	fl.StringVar(&o.save, "save", "", "write the fault plan each run took to FILE (one per semantics: FILE gets .ALIAS before its extension); replay it live with --replay FILE")
	fl.StringVar(&o.suite, "suite", "", "with --target: run every scenario of a suite (payments) on --seeds seeds, one table and one exit code (docs/live.md)")
	fl.IntVar(&o.seeds, "seeds", live.DefaultSuiteSeeds, "with --suite: seeds per row, from --seed on")
	fl.StringSliceVar(&o.rows, "rows", nil, "with --suite: only these rows (comma list: "+strings.Join(live.RowNames("payments"), ",")+")")
	fl.BoolVar(&o.printEnv, "print-env", false, "print the environment your service needs under --target (the provider URL) and exit")
	return cmd
}

// liveSignals end a live run through its cleanups (no temporary directory,
// schema or paused service left), not by their default of no cleanup.
var liveSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}

// newBrokerWorkerCmd is a worker or consumer process of once live --broker.
func newBrokerWorkerCmd() *cobra.Command {
	run := func(cmd *cobra.Command, args []string) error {
		return brokers.WorkerMain(args[0], os.Stdin, cmd.OutOrStdout())
	}
	return &cobra.Command{Use: brokers.WorkerCommand + " CONFIG", Hidden: true, Args: cobra.ExactArgs(1), RunE: run}
}

// newLiveServeCmd is the payment service process that once live starts.
func newLiveServeCmd() *cobra.Command {
	return &cobra.Command{
		Use:    live.ServeCommand + " CONFIG",
		Short:  "the payment service process of once live (internal)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return live.ServeMain(args[0], os.Stdin, cmd.OutOrStdout())
		},
	}
}

func runLive(ctx context.Context, o *liveOptions, args []string, restartGiven bool, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "trace"); err != nil {
		return err
	}
	base, err := live.Flags{DB: o.db, Target: o.target, Restart: o.restart, RestartGiven: restartGiven, Provider: o.provider, AllowRemote: o.remote,
		PrintEnv: o.printEnv, Args: len(args), Replay: o.replay, TickMs: o.tickMs, Deadline: o.deadline, Ready: o.ready, Stderr: stderr}.Check()
	if errors.Is(err, live.ErrPrintEnv) {
		fmt.Fprintln(stdout, live.EnvLine(o.provider))
		return nil
	} else if err != nil {
		return usageErr("%v", err)
	}
	if o.suite != "" || o.flags.Changed("seeds") || o.flags.Changed("rows") {
		return runLiveSuite(ctx, o, base, args, stdout)
	}
	sc, seed, planned, err := o.liveRuns(args)
	if err != nil {
		return err
	}
	if base.Binary = o.binary; base.Binary == "" {
		if base.Binary, err = os.Executable(); err != nil {
			return fmt.Errorf("live: the once executable: %w", err)
		}
	}
	if b := &o.broker; b.Broker != "" || b.URL != "" || b.Variant != "" { // a real broker: brokers/ does the rest
		if o.save != "" {
			return usageErr("--save: a broker run keeps no fault plan yet; leave it out")
		}
		b.AllowRemote, b.Worker, b.Deadline, b.Stderr, b.Verbose = o.remote, []string{base.Binary, brokers.WorkerCommand}, o.deadline, stderr, o.verbose
		done, err := brokers.RunAll(ctx, *b, sc, planned)
		if errors.Is(err, brokers.ErrUsage) {
			return asUsage(err)
		} else if err != nil {
			return err
		}
		return renderChecked(stdout, o.format, o.check, sc, seed, planned[0].Settings, done)
	}
	if err := live.CheckAll(sc, planned, o.target != "", o.restart != ""); err != nil { // refuse before anything starts
		return usageErr("%v", err)
	}
	if o.target != "" {
		if err := live.WaitReady(ctx, o.target, o.ready, stderr); err != nil { // nobody listening: one line now, not lost requests
			return usageErr("%v", err)
		}
	}
	done, err := live.RunAll(ctx, base, sc, planned, o.verbose)
	if err != nil {
		return err
	}
	if o.save != "" {
		paths, err := live.SavePlans(o.save, sc, seed, planned[0].Settings, done, base)
		if err != nil {
			return usageErr("--save %v", err)
		}
		fmt.Fprintln(stderr, "saved fault plan "+strings.Join(paths, ", "))
	}
	return renderChecked(stdout, o.format, o.check, sc, seed, planned[0].Settings, done)
}

// liveRuns resolves the runs to make: one per semantics from the flags, or
// the one run of a plan file.
func (o *liveOptions) liveRuns(args []string) (*scenarios.Scenario, uint64, []live.Planned, error) {
	if o.replay != "" {
		sc, seed, ps, err := live.FromPlan(o.replay)
		if err != nil {
			return nil, 0, nil, usageErr("%v", err)
		}
		return sc, seed, ps, nil
	}
	sc, err := o.scenario(args)
	if err != nil {
		return nil, 0, nil, err
	}
	sems, set, err := o.resolve(sc)
	if err != nil {
		return nil, 0, nil, err
	}
	ps, err := live.Seeded(sc, sems, set, o.seed)
	if err != nil {
		return nil, 0, nil, usageErr("%v", err)
	}
	return sc, o.seed, ps, nil
}

// runLiveSuite runs --suite: live checks, runs and writes it all.
func runLiveSuite(ctx context.Context, o *liveOptions, base live.Options, args []string, stdout io.Writer) error {
	s := live.SuiteRun{Name: o.suite, Target: o.target, First: o.seed, Seeds: o.seeds, Format: o.format, Verbose: o.verbose, Rows: o.rows, Args: args}
	o.flags.Visit(func(f *pflag.Flag) { s.Changed = append(s.Changed, f.Name) })
	if err := s.Check(); err != nil {
		return usageErr("%v", err)
	}
	status, err := s.Run(ctx, base, stdout)
	if err != nil {
		return err
	}
	return checkExit(status)
}
