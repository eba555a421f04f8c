# attnscope, Simplified Chinese: listening

## 语音标签页

speech-whisper-load-failed = 无法加载 Whisper：{ $message }
speech-which-head = 解码器第 { $layer } 层，第 { $head } 个头
speech-which-alignment = 对齐头的平均
speech-intro = 说一句话、打开一个声音文件，或选一个示例。Whisper（tiny.en）写下它听到的内容；它写下的每个 token 都有一个查询，去看声音的键：这就是它的
speech-intro-cross = 交叉注意力
speech-intro-end = ，即在 20 ms 音频帧上的 softmax(qKᵀ/√d_k)。
speech-facts = { $seconds } s 声音，{ $frames } 个 20 ms 的帧；{ $tokens } 个 token；识别用时 { $ms } ms{ $memory }。
speech-facts-memory = ，worker 内存 { $mb } MB
speech-tokens-label = 转写文本的 token
speech-alignment-mean = 对齐头（平均）
speech-layer-head = 第 { $layer } 层 · 第 { $head } 个头
speech-cross-of = 交叉注意力：
speech-needs-secure = 录音需要安全页面（https:// 或 localhost）；文件和示例仍然可用。
speech-no-microphone = 此浏览器无法访问麦克风；文件和示例仍然可用。
speech-microphone-refused = 麦克风访问被拒绝（{ $message }）；文件和示例仍然可用。
speech-microphone-failed = 无法打开麦克风（{ $message }）；文件和示例仍然可用。
speech-nothing-recorded = 什么也没录到：麦克风没有传来声音。
speech-not-decodable = 浏览器无法解码这个文件中的声音（{ $message }）。
speech-file-unreadable = 无法读取文件：{ $message }
speech-file-empty = 文件里没有声音。
speech-recording = 录音中…… { $seconds } s，最长 30 s。完成后请按“停止”。
speech-reading = 正在读取声音……
speech-downloading = 正在下载 Whisper tiny.en：{ $loaded } / { $total } MB（只需一次；浏览器会保存它）……
speech-listening = Whisper 正在听……
speech-stop = ■ 停止
speech-record = ● 录音
speech-open-file = 打开声音文件……
speech-example-title = 示例片段，由 espeak-ng 合成
speech-download-note = Whisper tiny.en 在第一次使用时下载（约 { $size } MB）并由浏览器保存；声音从不离开本页面。
speech-encoder-axis = 键：听到的帧 →
speech-encoder-readout = { $q0 }–{ $q1 } s 的查询给 { $k0 }–{ $k1 } s 的键分配了 { $weight } 的注意力（平均）；其中 { $stayed } % 留在片段上，其余落在填充上。
speech-encoder-hover = 将指针悬停在单元格上可读出其权重。
speech-encoder-title = 编码器如何读取声音
speech-encoder-cell-frame = 一个 20 ms 的帧
speech-encoder-cell-block = 一个由 { $block } 帧（{ $ms } ms）组成的块，取其查询的平均
speech-encoder-caption = 在写下任何词之前，先看编码器的自注意力：每一帧声音（一行）对所有帧（各列），没有掩码——编码器双向听完整个片段。每个单元格每边对应{ $cell }；每行按自身峰值缩放。片段之后填充的静音不显示。
speech-encoder-layer = 编码器层
speech-encoder-head = 头
speech-encoder-aria = 编码器的自注意力：声音的帧作为行和列
speech-decoder-title = 解码器如何读取自己写下的词
speech-decoder-caption = 解码器在书写时的因果自注意力：每个 token 的查询（一行）对目前已写出的各 token 的键（各列）；每行之和为 1。对角线上方的单元格为灰色：因果掩码遮住了尚未写出的 token。
speech-decoder-layer = 解码器层
speech-decoder-head = 头
speech-decoder-aria = 解码器的因果自注意力：转录文本的 token 作为行（查询）和列（键）
speech-decoder-readout = “{ $query }” → “{ $key }”：{ $weight }
speech-decoder-masked = “{ $query }” → “{ $key }”：被因果掩码遮住（“{ $key }”在之后才写出）
speech-decoder-hover = 将指针悬停在单元格上可读出其权重。
speech-heatmap-pad = 填充
speech-heatmap-caption = 每个 token 随时间的交叉注意力（{ $which }）：每个 token 一行，每行按自身峰值缩放；最右侧是该行分给片段之后填充静音的份额（Whisper 总是读取 30 s）。
speech-heatmap-aria = 交叉注意力：转写文本的 token 为行，时间为列
speech-spectrogram-caption = 声音的声谱图（横轴为时间，越往上音越高）、所选 token 在其上的交叉注意力（{ $which }），以及对齐头给出的各词时间。点按一个词即可听到它。
speech-spectrogram-aria = 声谱图，叠加所选 token 随时间的注意力和各词的时间段
speech-readout = “{ $token }”（token { $index }）：其查询的权重在 { $from }–{ $to } s 处达到峰值 { $peak }；{ $clip }% 落在片段上，{ $padding }% 落在片段之后填充的静音上。
speech-readout-none = 选择一个 token 或一个词，看看它在听哪里。

## 逐步：声音上的注意力

speech-step-title = 逐步：一个 token 的查询在声音上
speech-step-caption = “{ $token }”（token { $index }）经过解码器第 { $layer } 层第 { $head } 个头：q 来自解码器的 token，k 和 v 来自编码器对每个 20 ms 声音帧的输出。
speech-step-alignment = 对齐头的平均不是单个头：这里逐步跟随其中第一个，第 { $layer } 层第 { $head } 个头。
speech-step-query = 该 token 的查询（{ $count } 个数）：
speech-step-table-caption = 片段中这个查询给予权重最大的 { $count } 个帧，最强的在前：每个帧的键 k、点积 q·k、该分数乘以缩放，以及在全部 { $keys } 个帧上做 softmax 之后的权重 a。
speech-step-time = 时间 (s)
speech-step-key = 键 k（前几个数）
speech-step-weight = 权重 a = softmax
speech-step-padding = 片段的 { $frames } 个帧合计得到 { $clip } 的权重；片段之后填充静音的 { $pad } 个帧得到 { $padding }。
speech-step-output = 该头对这个 token 的输出（{ $count } 个数）：
speech-step-waiting = 正在计算这一步…
speech-step-failed = 无法计算这一步：{ $message }

## 翻译标签页

translation-which-head = 解码器第 { $layer } 层，第 { $head } 个头
translation-which-layer = 解码器第 { $layer } 层，其各头的平均
translation-which-head-mean = 第 { $head } 个头，在解码器各层上平均
translation-which-mean = 解码器所有层和头的平均
translation-svg-title =
    { $model }：{ $translation }
    交叉注意力，{ $which }
translation-export-aria = 导出交叉注意力
translation-export = 导出
translation-export-json-title = 解码器的每一层和每个头，连同 token 和译文
translation-heatmap-caption = 交叉注意力，{ $which }：每行是一个目标词，每列是一个源词；每行之和为 1。
translation-heatmap-aria = 交叉注意力：目标词为行，源词为列
translation-readout = “{ $target }” → “{ $source }”：{ $weight }（{ $which }）
translation-readout-none = 指向或点按一个单元格，读出其权重。
translation-lines-aria = 交叉注意力画成连线：从每个目标词（下方）连到各源词（上方）
translation-lines-caption = 连线，{ $which }：上方是源文，下方是译文；点击一个目标词可只看它的连线。
translation-target-word = 目标词
translation-step-caption = “{ $word }”，解码器第 { $layer } 层，第 { $head } 个头：q 来自解码器（这个词经过其 SSRU 之后），k 和 v 来自编码器对每个源词的输出。
translation-step-caption-mean = “{ $word }”，解码器第 { $layer } 层，第 { $head } 个头（逐步展示只跟随一个头：请在上方选择层和头）：q 来自解码器（这个词经过其 SSRU 之后），k 和 v 来自编码器对每个源词的输出。
translation-step-source = 源词 j
translation-step-sum = Σ a_j = { $sum }（没有掩码：每个源词对每个目标词都可见）。
translation-model-note = Bergamot 的小型翻译模型：编码器有 6 层自注意力（热力图、点阵图和所有头标签页会显示它们），解码器有 2 层，其目标词关注源词（翻译标签页）。
translation-empty = 选择一个翻译模型（翻译：英语 → 葡萄牙语，或葡萄牙语 → 英语）即可查看交叉注意力。
translation-layer = 层
translation-mean-layers = 各层平均
translation-decoder-layer = 解码器第 { $layer } 层
translation-head = 头
translation-mean-heads = 各头平均
translation-head-n = 第 { $head } 个头
translation-parts-aria = 交叉注意力的几种图示
translation-part-heatmap = 热力图
translation-part-lines = 连线
translation-part-step = 单个词，逐步
translation-generate = ▶ 逐步生成
translation-candidate = { $token } { $percent }%
translation-generating = 第 { $step } 步，共 { $total } 步：模型选择了“{ $token }”——候选为 { $others }。下方它的那一行显示这个词在源文中看向哪里。
translation-no-self-attention = 这个解码器没有自注意力。
translation-no-self-attention-why = 这个解码器没有自注意力。为了足够小、足够快以便在浏览器中运行，它的 2 层都用 SSRU（简化的简单循环单元）取代了对前面目标词的自注意力：对目前已生成的词只保留一个不断更新的摘要，由遗忘门更新，而不是对每个词分配注意力权重。因此解码器中唯一的注意力就是这里展示的交叉注意力：查询来自目标端，键和值来自编码器对源文的输出。
translation-provenance = 模型来源 · 许可证：{ $license }

## 图像标签页

image-patch = 图块 { $row },{ $col }
image-none = 图像标签页显示视觉模型在其图片上的注意力。请打开一个视觉 trace：由 attnscope.trace_image（Python）从 ViT、DeiT、DINOv2 或 CLIP 模型写出的 trace。
image-rollout-computing = Rollout：正在逐层计算……
image-rollout-caption = 经过全部 { $layers } 层、各头取平均后的 rollout：每个图块的输入有多少经由注意力和残差路径到达 { $query }；从 0 到最大值 { $top }；{ $share }% 来自 { $patches } 个图块，其余来自 { $specials } 个特殊 token。
image-layer-head = 第 { $layer } 层 · 第 { $head } 个头
image-head-reading = { $head }：正在读取该头的权重……
image-head-caption = { $head }：{ $query } 看向哪里。每个图块按查询给它的权重着色，从 0 到最大值 { $top }；其权重的 { $share }% 落在 { $patches } 个图块上，其余落在 { $specials } 个特殊 token 上。
image-readout-most = 最大权重：{ $patch }（{ $weight }）
image-readout-under = 指针下：{ $patch }，{ $weight }（第 { $rank } 名，共 { $count } 个）
image-queries-aria = 查询 token
image-hint = 或点击一个图块（方向键可移动）
image-show = 显示
image-source-head = 所选的头
image-source-rollout = 贯穿各层的 rollout
image-tint = 着色
image-overlay-aria = 图片被切成 { $rows } × { $cols } 个图块，按 { $query } 的注意力着色
image-heads-tile = 头 { $head }
image-heads-summary = 第 { $layer } 层的所有头并排显示
image-heads-caption = 同一个查询在每个头中的情况，每个头从 0 到其自身最大权重着色；点击可选择一个头。
image-heads-aria = 第 { $layer } 层的各头并排显示
image-steps-aria = 查询、键和一个权重
image-step-query-label = 查询：
image-step-keys-label = 键：
image-step-weight-label = 权重：
image-step-query = { $query }：它的向量 q 有 { $dims } 个数，表示这个 token 在寻找什么。
image-step-query-none = { $query }（该 trace 不含查询和键）。
image-step-keys = 全部 { $n } 个 token，其中 { $patches } 个图块、{ $specials } 个特殊 token：每个都提供一个向量 k。
image-step-weight = 它权重最大的键是 { $key }：q·k = { $score }，× { $scale }（1/√{ $dims }）= { $scaled }；对全部 { $n } 个分数做 softmax 后它得到 { $weight }，也就是其图块的颜色。
image-step-weight-plain = 它权重最大的键是 { $key }，权重为 { $weight }。

# The axes of the exported cross-attention heatmap (PNG, SVG).
translation-axis-keys = 键 →
translation-axis-queries = 查询 ↓
