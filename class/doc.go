// Package class is `once class`: the lesson (package lesson) served to a
// room's browsers by one local web server. Each student joins with a
// name and answers their own variant — the seeds `once lesson --student
// NAME --token T` would run, the token derived from a class key only the
// server holds —; the instructor opens each step's phases in turn
// (predictions, then the run and the evidence questions, then the
// reveal); the first answer to a question counts and none is accepted
// after the reveal. The instructor's dashboard shows, live, how many
// answered and, per question of the bank, the share of right answers and
// the wrong ones chosen; it exports the roster as CSV and the result
// files `once lesson grade` reads.
//
// Pages are rendered on the server from embedded templates, with a few
// lines of script (polling) and nothing loaded from the network. The
// state — students, answers, the step and its phase, the tokens — lives
// in a SQLite file in the class's directory (StateFile), so a restart
// loses nothing.
package class
