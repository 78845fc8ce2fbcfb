package docscheck

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Page is one Markdown file: its lines, the anchors of its headings, its
// links, its frontmatter and its fenced code.
type Page struct {
	Path       string // slash-separated, from the repository's root
	Lines      []string
	Anchors    map[string]bool
	Headings   []Heading
	Links      []Link
	Front      map[string]string // frontmatter keys and values; nil without frontmatter
	CodeBlocks []CodeBlock
}

// Heading is an ATX heading and the anchor it gets.
type Heading struct {
	Line   int
	Level  int
	Text   string
	Anchor string
}

// Link is the target of an inline link, on its line.
type Link struct {
	Line   int
	Target string
}

// CodeBlock is a fenced block: its info string and its text.
type CodeBlock struct {
	Line int // the opening fence's
	Info string
	Text string
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	// The target of an inline link or image: after "](", up to a space
	// (before a title) or the closing parenthesis.
	linkTarget = regexp.MustCompile(`\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// Parse reads a Markdown file's text.
func Parse(name, text string) *Page {
	p := &Page{Path: name, Lines: strings.Split(text, "\n"), Anchors: map[string]bool{}}
	start := 0
	if len(p.Lines) > 0 && p.Lines[0] == "---" {
		if end := slices.Index(p.Lines[1:], "---"); end >= 0 {
			p.Front = frontmatter(p.Lines[1 : end+1])
			start = end + 2
		}
	}
	seen := map[string]int{}
	var fence string // the opening fence of the block we are in
	var block *CodeBlock
	for i := start; i < len(p.Lines); i++ {
		line, n := p.Lines[i], i+1
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
				p.CodeBlocks = append(p.CodeBlocks, *block)
				continue
			}
			block.Text += line + "\n"
			continue
		}
		if f := openingFence(trimmed); f != "" {
			fence = f
			block = &CodeBlock{Line: n, Info: strings.TrimSpace(strings.TrimLeft(trimmed, f[:1]))}
			continue
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			anchor := Slug(m[2])
			if k := seen[anchor]; k > 0 {
				seen[anchor] = k + 1
				anchor += "-" + strconv.Itoa(k)
			} else {
				seen[anchor] = 1
			}
			p.Anchors[anchor] = true
			p.Headings = append(p.Headings, Heading{Line: n, Level: len(m[1]), Text: m[2], Anchor: anchor})
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			p.Anchors[m[1]] = true
		}
		for _, m := range linkTarget.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, "``"), -1) {
			p.Links = append(p.Links, Link{Line: n, Target: m[1]})
		}
	}
	return p
}

// openingFence is the run of backticks or tildes that opens a fenced
// block on this (trimmed) line, or "".
func openingFence(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		run := len(trimmed) - len(strings.TrimLeft(trimmed, c))
		if run >= 3 {
			return strings.Repeat(c, run)
		}
	}
	return ""
}

// frontmatter reads the YAML subset tfplugindocs writes: `key: "value"`,
// `key: value` and `key: |-` followed by indented lines.
func frontmatter(lines []string) map[string]string {
	front := map[string]string{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") {
			continue
		}
		value = strings.TrimSpace(value)
		switch {
		case value == "|-" || value == "|" || value == ">-" || value == ">":
			var parts []string
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || lines[i+1] == "") {
				i++
				parts = append(parts, strings.TrimSpace(lines[i]))
			}
			value = strings.TrimSpace(strings.Join(parts, " "))
		case strings.HasPrefix(value, `"`):
			if u, err := strconv.Unquote(value); err == nil {
				value = u
			}
		}
		front[strings.TrimSpace(key)] = value
	}
	return front
}

// Slug is the anchor GitHub gives a heading of this text (see the package
// comment).
func Slug(heading string) string {
	text := inlineLink.ReplaceAllString(heading, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
