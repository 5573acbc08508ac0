package lesson

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
)

// ClassKeyEnv is the environment variable the class key may come from
// instead of --class-key, so that it stays out of the shell's history.
const ClassKeyEnv = "ONCE_CLASS_KEY"

// MinClassKey is the shortest class key accepted, in bytes: a student
// holds a name and its token, and a short key could be found from them
// by trying keys.
const MinClassKey = 16

// tokenAlphabet spells tokens: lower-case letters and digits without
// i, l, o and u, so that a token read aloud or copied by hand is not
// misread (Crockford's base 32).
const tokenAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// tokenBody is how many characters of the name's HMAC a token keeps (5
// bits each: 75 bits); one check character follows, so a mistyped token
// is caught when the student starts, not when the instructor grades.
const tokenBody = 15

// ClassKey is the class key given by flag (when not empty) or by
// ONCE_CLASS_KEY; "" when neither is set. An *InputError when the key is
// too short to keep the tokens secret.
func ClassKey(flag string) (string, error) {
	k, from := flag, "--class-key"
	if k == "" {
		k, from = os.Getenv(ClassKeyEnv), ClassKeyEnv
	}
	if k != "" && len(k) < MinClassKey {
		return "", &InputError{Err: fmt.Errorf("%s: a key of %d bytes: want at least %d (for instance: head -c 24 /dev/urandom | base64)", from, len(k), MinClassKey)}
	}
	return k, nil
}

// NeedClassKey is ClassKey for what cannot do without one (tokens,
// grade): an *InputError when none is given.
func NeedClassKey(flag, what string) (string, error) {
	k, err := ClassKey(flag)
	if err == nil && k == "" {
		err = &InputError{Err: fmt.Errorf("%s needs the class key: --class-key KEY or %s", what, ClassKeyEnv)}
	}
	return k, err
}

// StudentName is a name as the lesson compares it: trimmed of spaces.
func StudentName(name string) string { return strings.TrimSpace(name) }

// Token is the token the instructor issues to the student called name
// under the class key: HMAC-SHA256(key, name), its first 75 bits in
// tokenAlphabet, a check character, in groups of four ("7k2m-…").
func Token(classKey, name string) string {
	mac := hmac.New(sha256.New, []byte(classKey))
	mac.Write([]byte("once.lesson/token\x00"))
	mac.Write([]byte(StudentName(name)))
	sum := mac.Sum(nil)
	body := make([]byte, 0, tokenBody+1)
	for i := 0; i < tokenBody; i++ { // bits 5i..5i+4 of the HMAC
		v := 0
		for b := 5 * i; b < 5*i+5; b++ {
			v = v<<1 | int(sum[b/8]>>(7-b%8)&1)
		}
		body = append(body, tokenAlphabet[v])
	}
	body = append(body, checkChar(body))
	return group(string(body))
}

// checkChar is the check character of a token's body: Σ vᵢ·αⁱ in
// GF(32) (α a root of x⁵+x²+1), so that any one wrong character, and any
// swap of two different neighbours, changes it.
func checkChar(body []byte) byte {
	var sum, pow byte = 0, 1
	for _, c := range body {
		sum ^= gfMul(byte(strings.IndexByte(tokenAlphabet, c)), pow)
		pow = gfMul(pow, 2)
	}
	return tokenAlphabet[sum]
}

// gfMul multiplies in GF(32) modulo x⁵+x²+1.
func gfMul(a, b byte) byte {
	var p byte
	for ; b > 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		a <<= 1
		if a&32 != 0 {
			a ^= 0x25
		}
	}
	return p
}

// group writes a token in groups of four, joined by dashes.
func group(s string) string {
	var parts []string
	for len(s) > 4 {
		parts = append(parts, s[:4])
		s = s[4:]
	}
	return strings.Join(append(parts, s), "-")
}

// ParseToken reads a token as a student types it (any case, with or
// without dashes and spaces) and returns it as Token writes it; an error
// when it cannot be one (its length, a character, its check character).
func ParseToken(s string) (string, error) {
	var b []byte
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '-' || r == ' ':
		case r < 128 && strings.IndexByte(tokenAlphabet, byte(r)) >= 0:
			b = append(b, byte(r))
		default:
			return "", fmt.Errorf("a token is letters and digits in groups of four, as the instructor gave it (%q is not one of them)", r)
		}
	}
	if len(b) != tokenBody+1 {
		return "", fmt.Errorf("a token has %d letters and digits, this one %d: copy it as the instructor gave it", tokenBody+1, len(b))
	}
	if checkChar(b[:tokenBody]) != b[tokenBody] {
		return "", fmt.Errorf("not a token the instructor gave (its check character is wrong): copy it again")
	}
	return group(string(b)), nil
}

// ValidToken says whether token is the one the class key issues to name.
func ValidToken(classKey, name, token string) bool {
	t, err := ParseToken(token)
	return err == nil && hmac.Equal([]byte(t), []byte(Token(classKey, name)))
}

// tokenSeed is the first candidate seed of the holder of token for a step:
// SHA-256 of the token and the step, in 1..seedSpace. The token is an
// HMAC of the name under the class key, so a student computes their own
// seeds (from the token they hold) and nobody else's.
func tokenSeed(token, step string) uint64 {
	h := sha256.New()
	h.Write([]byte("once.lesson/seed\x00"))
	h.Write([]byte(token))
	h.Write([]byte{0})
	h.Write([]byte(step))
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])%seedSpace + 1
}
