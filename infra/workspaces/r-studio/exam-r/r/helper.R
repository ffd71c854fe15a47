# The R side of the exam-r extension's editor features (completion, hover, diagnostics), one request per line on
# stdin and one answer per line on stdout, both JSON:
#   {"id":1,"op":"complete","line":"mean(x, na"}  -> {"id":1,"token":"na","items":["na.rm=", …]}
#   {"id":2,"op":"hover","word":"lm"}             -> {"id":2,"text":"lm(formula, data, ...)\n\nFitting Linear Models ..."}
#   {"id":3,"op":"lint","text":"x <- (1"}         -> {"id":3,"diagnostics":[{"line":1,"column":7,"severity":"error","message":"..."}]}
# Completion is R's own (the console's Tab completion, utils:::.completeToken); hover is the function's signature
# and the start of its help page; diagnostics are R's parser errors, then lintr's lints.
suppressPackageStartupMessages({
  library(jsonlite)
  has_lintr <- requireNamespace("lintr", quietly = TRUE)
})

complete <- function(line) {
  utils:::.assignLinebuffer(line)
  utils:::.assignEnd(nchar(line))
  token <- utils:::.guessTokenFromLine()
  utils:::.completeToken()
  list(token = token, items = as.character(utils:::.retrieveCompletions()))
}

hover <- function(word) {
  parts <- strsplit(word, "::", fixed = TRUE)[[1]]
  obj <- tryCatch(
    if (length(parts) == 2) getExportedValue(parts[1], parts[2]) else get(word, envir = globalenv()),
    error = function(e) NULL
  )
  if (is.null(obj)) return("")
  topic <- parts[length(parts)]
  signature <- if (is.function(obj)) {
    a <- deparse(args(obj))
    paste0(topic, sub("^function ", "", paste(trimws(a[-length(a)]), collapse = " ")))
  } else {
    paste(utils::capture.output(utils::str(obj, max.level = 1)), collapse = "\n")
  }
  help <- tryCatch({
    h <- if (length(parts) == 2) utils::help(topic, package = (parts[1])) else utils::help(topic)
    if (length(h) == 0) "" else {
      rd <- utils:::.getHelpFile(h[1])
      text <- utils::capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE)))
      text <- text[nzchar(trimws(text))]
      paste(utils::head(text, 12), collapse = "\n")
    }
  }, error = function(e) "")
  paste(c(signature, if (nzchar(help)) c("", help)), collapse = "\n")
}

lint <- function(text) {
  file <- tempfile(fileext = ".R")
  on.exit(unlink(file))
  cat(text, file = file) # as the editor holds it: writeLines would add a newline lintr reports
  problem <- tryCatch({ parse(file, keep.source = FALSE); NULL }, error = function(e) conditionMessage(e))
  if (!is.null(problem)) {
    at <- regmatches(problem, regexec(":([0-9]+):([0-9]+): ([^\n]*)", problem))[[1]]
    line <- if (length(at)) as.integer(at[2]) else 1L
    column <- if (length(at)) as.integer(at[3]) else 1L
    message <- if (length(at)) at[4] else problem
    return(list(list(line = line, column = column, severity = "error", message = message, source = "R")))
  }
  if (!has_lintr) return(list())
  lints <- tryCatch(lintr::lint(file, cache = FALSE), error = function(e) list())
  lapply(lints, function(l) list(
    line = l$line_number, column = l$column_number,
    severity = if (identical(l$type, "error")) "error" else if (identical(l$type, "warning")) "warning" else "info",
    message = l$message, source = paste0("lintr: ", l$linter)
  ))
}

input <- file("stdin", open = "r")
repeat {
  line <- readLines(input, n = 1, warn = FALSE)
  if (length(line) == 0) break
  request <- tryCatch(fromJSON(line, simplifyVector = FALSE), error = function(e) NULL)
  if (is.null(request)) next
  answer <- tryCatch(
    switch(request$op,
      complete = c(list(id = request$id), complete(request$line)),
      hover = list(id = request$id, text = hover(request$word)),
      lint = list(id = request$id, diagnostics = lint(request$text)),
      list(id = request$id, error = paste("unknown op", request$op))
    ),
    error = function(e) list(id = request$id, error = conditionMessage(e))
  )
  cat(toJSON(answer, auto_unbox = TRUE, null = "null"), "\n", sep = "")
  flush(stdout())
}
