// Package usererr is a mistake in the user's input that a front end can
// word in the reader's language: its English text, as every caller and
// test sees it through Error, and a message id with the fields that text
// names, for a translation (report/lang, the "error." messages).
package usererr

import (
	"errors"
	"maps"
	"strings"
)

// Error is one input mistake: "unknown scenario "x" (see: once list)".
type Error struct {
	// ID names the message under "error." in report/lang's locales.
	ID string
	// Data holds the fields the message names.
	Data  map[string]any
	text  string
	cause error
}

// New returns the mistake id with its fields and its English text.
func New(id string, data map[string]any, english string) *Error {
	return &Error{ID: id, Data: data, text: english}
}

// Wrapping is e, unwrapping to cause (a sentinel a caller tests with
// errors.Is); the text stays e's.
func (e *Error) Wrapping(cause error) *Error {
	c := *e
	c.cause = cause
	return &c
}

// Unwrap is the cause given to Wrapping, or nil.
func (e *Error) Unwrap() error { return e.cause }

// Error is the English text.
func (e *Error) Error() string { return e.text }

// MessageID is the message id of the mistake (under "error.").
func (e *Error) MessageID() string { return e.ID }

// MessageData holds the fields the message names.
func (e *Error) MessageData() map[string]any { return e.Data }

// Worded is any input mistake that names its message: an *Error, or the
// error type of a package that must not import this one (the engine,
// which imports the standard library only, words its own this way).
type Worded interface {
	error
	MessageID() string
	MessageData() map[string]any
}

// Localize rewrites err's text with the mistake it wraps, if any, worded
// by word (the wrapping context — a flag name, a file — stays as it is).
func Localize(err error, word func(id string, data map[string]any) string) string {
	msg := err.Error()
	var e Worded
	if !errors.As(err, &e) {
		return msg
	}
	id := e.MessageID()
	data := e.MessageData()
	for k, v := range e.MessageData() { // a field that is itself a worded mistake is worded too
		if inner, ok := v.(error); ok {
			data = maps.Clone(data)
			data[k] = Localize(inner, word)
		}
	}
	w := word("error."+id, data)
	if w == "" || w == "error."+id {
		return msg
	}
	if text := e.Error(); text != "" {
		if i := strings.LastIndex(msg, text); i >= 0 {
			return msg[:i] + w + msg[i+len(text):]
		}
	}
	return msg
}

// Caused returns text as an error that unwraps to every error in args, so
// a message built with %v from other errors still lets Localize (and
// errors.As) find the mistake inside it; with no error in args it returns
// nil and the caller keeps its own.
func Caused(text string, args []any) error {
	var causes []error
	for _, a := range args {
		if e, ok := a.(error); ok {
			causes = append(causes, e)
		}
	}
	if len(causes) == 0 {
		return nil
	}
	return &caused{text: text, causes: causes}
}

type caused struct {
	text   string
	causes []error
}

func (e *caused) Error() string   { return e.text }
func (e *caused) Unwrap() []error { return e.causes }
