"""UBR+ (Goyal, Jain et al., "UBR+: improving performance of TCP over ATM-UBR service"):
`data` the published Tables 1-6, `scenarios` one N-source scenario per row, `study` the STUDY
object of `atmsim reproduce ubr-plus`, `figures` its report figures, `text` the terminal tables."""
