package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tflogBridge passes the client's events to tflog, with the token masked
// in messages and field values should it ever appear in either.
type tflogBridge struct{ token string }

func (b tflogBridge) mask(ctx context.Context) context.Context {
	return maskToken(ctx, b.token)
}

func (b tflogBridge) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(b.mask(ctx), msg, fields)
}

func (b tflogBridge) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(b.mask(ctx), msg, fields)
}

func maskToken(ctx context.Context, token string) context.Context {
	if token == "" {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, token)
	return tflog.MaskMessageStrings(ctx, token)
}
