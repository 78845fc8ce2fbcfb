package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// tflogBridge passes the client's events to tflog, with the token masked
// in messages and field values should it ever appear in either.
type tflogBridge struct{ token string }

func (b tflogBridge) mask(ctx context.Context) context.Context {
	return maskToken(ctx, b.token)
}

func (b tflogBridge) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(b.mask(ctx), b.scrub(msg), b.scrubFields(fields))
}

func (b tflogBridge) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(b.mask(ctx), b.scrub(msg), b.scrubFields(fields))
}

// scrub is the one redaction every log line passes at the last moment
// before it leaves the provider: the token in every spelling a server may
// echo it in (a URL it redirected to, a header it answered with), which
// tflog's own mask, matching the token as it is, would let through.
func (b tflogBridge) scrub(s string) string { return client.Scrubber(b.token)(s) }

// scrubFields scrubs every field a value could carry text in: strings,
// errors and anything that prints itself.
func (b tflogBridge) scrubFields(fields map[string]any) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		switch t := v.(type) {
		case string:
			v = b.scrub(t)
		case error:
			v = b.scrub(message(t))
		case fmt.Stringer:
			v = b.scrub(t.String())
		}
		out[k] = v
	}
	return out
}

func maskToken(ctx context.Context, token string) context.Context {
	if token == "" {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, token)
	return tflog.MaskMessageStrings(ctx, token)
}
