module zkmsm.dev/capi/go

go 1.19
