package client

import "context"

// Logger receives the client's events. The provider bridges it to tflog;
// fields never hold the token or request headers.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

type discardLogger struct{}

func (discardLogger) Debug(context.Context, string, map[string]any) {}
func (discardLogger) Warn(context.Context, string, map[string]any)  {}
