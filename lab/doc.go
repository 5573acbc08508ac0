// Package lab lets an external process — a student's service or consumer,
// written in any language — play one node of a scenario. The process
// speaks JSON lines on stdin and stdout in lock-step with the engine
// (docs/lab-protocol.md): the harness hands it one event (init, a
// delivery, a timer), the process answers with its actions (send, set or
// cancel a timer, read and write the harness's durable or volatile store,
// an effect on a sink) and then done. The process never sees a clock or an
// unseeded random: time, timers and the seed come from the harness, so a
// run stays a pure function of its inputs and its fault choices.
//
// A Node is the sim.Node that drives the process; a Session owns the
// processes of one run and kills their process groups when it closes; a
// Lab builds sessions for a scenario and runs, replays, explores (by
// re-execution: a fresh process per schedule, the prefix replayed) and
// shrinks them. The run is single-threaded: the only concession to real
// processes is a wall-clock deadline on each read (--step-timeout).
package lab
