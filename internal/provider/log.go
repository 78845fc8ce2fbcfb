package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tflogBridge passes the client's events to tflog, with the token masked
// (tflog's own mask) in messages and field values should it ever appear
// in either; server text in them is redacted where the client builds them.
type tflogBridge struct{ token string }

func (b tflogBridge) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(maskToken(ctx, b.token), msg, worded(fields))
}

func (b tflogBridge) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(maskToken(ctx, b.token), msg, worded(fields))
}

// worded turns error fields into their messages, with the provider's
// names for the settings they name.
func worded(fields map[string]any) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		if err, ok := v.(error); ok {
			v = message(err)
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
