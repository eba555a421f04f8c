# attnscope, Chinese (Simplified): writing

## Whether the model shown writes
write-not-encoder = 续写只适用于解码器：此模型是编码器，会双向读取整段文本，没有下一个 token 可选。
write-not-trace = trace 文件保存的是在别处算好的注意力，不含模型的权重：这里无法选择下一个 token。
write-not-translator = 翻译模型的译文显示在“翻译”标签页中；这里的续写只适用于解码器。
write-at-most = 一次生成最多写 { $tokens } 个 token。
write-context-full = 文本已占满模型的上下文：没有空间再放一个 token。
write-stopped = 已停止。
write-end-of-text = { $model } 写出了 { $token }，它表示文本结束：续写到此为止。

## The card
write-heading = 续写
write-go = 续写
write-step = 单步
write-pause = 暂停
write-resume = 继续
write-stop = 停止
write-settings = 设置
write-count = token 数
write-choose = 选择方式
write-greedy = 贪心
write-sample = 采样
write-top-k = top-k
write-top-p = top-p
write-seed = 随机种子
write-hint-sample = 按上方设定的温度，从下方的条形中抽取（top-k 为 0 即关闭，top-p 为 1 即关闭）；相同的随机种子会重现相同的抽取结果。
write-hint-greedy = 贪心：每次都选概率最高的 token。

## The step's distribution
write-cut-line = 截断：其余的被舍去
write-chosen-mark = ◀ 选中
write-kept = 保留 { $tokens } 个 token，占概率的 { $share }，已重新归一化
write-chosen = 第 { $step } 步：选中 { $token }，温度调整后为 { $p }，重新归一化后为 { $kept }
write-chosen-drawn = 第 { $step } 步：选中 { $token }，温度调整后为 { $p }，重新归一化后为 { $kept }（抽取值 { $draw }）
write-chosen-drawn-unseen = 第 { $step } 步：选中 { $token }，温度调整后为 { $p }，重新归一化后为 { $kept }（抽取值 { $draw }；不在显示的前十个之中）
write-cache-title = 键值缓存
write-cache-computed = 第 { $token } 个 token 在 { $query } 个查询头中各新算了一行 Q，在 { $kv } 个键值头中各新算了一行 K 和 V，{ $layers } 层每层如此。复用的是每层每个键值头之前的 { $earlier } 行 K 和 V，共 { $millions } 百万个数；与重新计算全部 { $token } 行相比，省去了 { $saved }% 的投影。
write-cache-grouped = 分组查询：每个 K/V 头由 { $query } 个查询头共享。

## The timeline
write-timeline = 时间线
write-timeline-step = 第 { $step } 步，共 { $steps } 步：选出第 { $step } 个 token 之前
write-timeline-now = 现在：已写 { $tokens } 个 token

## The Q·K space
space-heading = 同一空间中的查询与键
space-translate = 平移键
space-values = 同时显示值
space-colour-by = 着色依据
space-colour-token = token
space-colour-position = 位置
space-translated-note = 键平移了 c = mean(Q) − mean(K)：一个查询那一行的每个分数都加上同一个 q·c，softmax 不受影响，所以 A 不变；两团点围绕同一个中心时，图中的远近更能说明问题。
space-plain-note = 模型实际算出的键：当查询和键从原点出发指向同一方向时 q·k 较大，而原点可能离两团点都很远。
space-one-token = 只有一个 token：一个查询和一个键无从投影。请输入至少两个 token 的文本。
space-key-title = 键 { $position }：{ $token }
space-query-title = 查询 { $position }：{ $token }（点击选择）
space-value-title = 值 { $position }：{ $token }
space-output-title = 查询 { $position } 的输出：{ $token }
space-value-line-title = { $query } 取“{ $key }”的值的 { $weight }
space-caption = ● 查询，■ 键，第 { $layer } 层第 { $head } 个头。两条轴保留了点的离散程度的 { $share } %，其余部分不在图中。点击一个圆点或上方的一个 token 来选择查询。
space-caption-grouped = ● 查询，■ 键，第 { $layer } 层第 { $head } 个头（键来自键值头 { $kv }）。两条轴保留了点的离散程度的 { $share } %，其余部分不在图中。点击一个圆点或上方的一个 token 来选择查询。
space-plot-label = 该头的查询（圆点）与键（方块）在其两条主轴上的分布
space-axis-1 = 轴 1：离散程度的 { $share } %
space-axis-2 = 轴 2：{ $share } %
space-token-name = “{ $token }”（{ $position }）
space-readout-query = 查询
space-readout-weightiest = 权重最大
space-readout-angle = 夹角最近（全部维度）
space-readout-plane = 图中最近
space-angle-same = 同一个键：它的方向与查询最接近。
space-angle-other = { $key }，A = { $weight }：更长的键即使夹角更大也可能胜出，因为 A 取决于 q·k = ‖q‖‖k‖cos θ。
space-plane-same = 同一个键：这里图像如实反映了情况。
space-plane-other = { $key }，A = { $weight }：这里图像有误导，因为一个平面只保留了部分离散程度；数字才是精确的。
space-no-values = 这次运行没有该头的值向量（trace 文件写入时未包含它们），或者它们全都重合为一点。
space-values-caption = ▲ 键值头 { $kv } 的值，画在它们自己的两条轴上（保留了值的离散程度的 { $share } %）；◆ 所选查询的输出 o = Σ_j a_j v_j。A 的每一行之和为 1，所以输出是值的加权平均：无论在图中还是在每个维度上，它都位于其查询所加权的那些值之间。
space-values-plot-label = 该头的值（三角形）在其自身两条主轴上的分布，以及所选查询的输出（菱形）
space-corpus = 在语料上
space-corpus-note = 该头在几百个内置句子（故事、问题、列表、数字、少量代码）上的所有查询和键，放在语料的两条主轴上；你的句子的查询和键放在同样的轴上，画在最上层。worker 对每个模型只计算一次语料，之后切换头是即时的。
space-corpus-progress = 正在用模型处理语料：{ $done } / { $total } 个句子
space-corpus-caption = 第 { $layer } 层第 { $head } 个头在语料上：查询为绿色，键为粉色（{ $sentences } 个句子的 { $points } 个点）；你的句子的 ● 查询和 ■ 键画在最上层。两条轴保留了语料离散程度的 { $share } %。
space-corpus-plot-label = 该头在语料上的查询与键，你的句子画在最上层
space-visitor-query-title = 查询 { $position }：{ $token }
space-grid = 所有头
space-grid-note = 所有头在语料上的分布，每层一行，各自使用自己的两条主轴（每个头约取语料的 30 个查询和 30 个键）。点击一个即可选择它。
space-grid-tile = 第 { $layer } 层第 { $head } 个头
space-tsne = t-SNE
space-tsne-note = t-SNE 放置各点时让每个点保留其最近的邻居（精确计算所有点对，使用固定种子）：分组有意义，分组之间的距离和方向没有意义，也没有坐标轴。当点很多、两条主轴把它们挤在一起时很有用。
space-tsne-caption = ● 查询，■ 键，第 { $layer } 层第 { $head } 个头，由 t-SNE 放置：相近的点在所有维度上都是邻居；分组之间的距离和方向没有意义。点击一个圆点或上方的一个 token 来选择查询。
