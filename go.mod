module github.com/llenvs/llenvs-go

go 1.22

require (
	github.com/bytedance/sonic v1.15.5
	github.com/ebitengine/purego v0.10.2
	golang.org/x/sys v0.22.0
)

require (
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
)
